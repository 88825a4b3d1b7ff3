//! gfx90a's packed f32 instructions with inline constants: the constant is a 32-bit f32 in the low dword,
//! and LLVM's code generator gives it `op_sel_hi` 0 so both halves read it (rocFFT's runtime-compiled
//! gfx90a butterflies multiply by 2.0 and -0.5 this way). Before, the interpreter read a float constant
//! as its f64 bits (low dword 0), so such a product was 0. Values against the host.

use crate::classes::run_body;

#[test]
fn gfx90a_packed_f32_ops_read_inline_float_constants_in_both_halves() {
    let body = "
        v_cvt_f32_u32 v2, v0
        v_add_f32 v3, 0.5, v2
        v_sub_f32 v4, 3.0, v2
        v_mul_f32 v5, -2.0, v2
        v_pk_fma_f32 v[6:7], v[2:3], 2.0, v[4:5] op_sel_hi:[1,0,1]
        v_pk_mul_f32 v[8:9], -4.0, v[4:5] op_sel_hi:[0,1]
        v_pk_add_f32 v[10:11], v[2:3], 0.5 op_sel_hi:[1,0] neg_lo:[0,1] neg_hi:[0,1]
        v_pk_mov_b32 v[12:13], 1.0, v[4:5] op_sel:[0,1]";
    let Some(out) = run_body("gfx90a", 64, body, 13, &[]) else { return };
    for l in 0..64usize {
        let x = l as f32;
        let (v2, v3, v4, v5) = (x, 0.5 + x, 3.0 - x, -2.0 * x);
        let want: [(usize, f32); 8] = [
            (6, v2.mul_add(2.0, v4)),
            (7, v3.mul_add(2.0, v5)),
            (8, -4.0 * v4),
            (9, -4.0 * v5),
            (10, v2 - 0.5),
            (11, v3 - 0.5),
            (12, 1.0),
            (13, v5),
        ];
        for (r, w) in want {
            let got = f32::from_bits(out[r - 1][l]);
            assert_eq!(got, w, "v{r} lane {l}");
        }
    }
}
