//! Lane-independent bit helpers of the vector ALU: byte permutes, bit-field extracts, 24-bit and
//! three-way median arithmetic (pure functions of one lane's values).

pub(super) fn perm_byte(data: u64, sel: u32) -> u32 {
    let byte = |k: u32| ((data >> (8 * k)) & 0xff) as u32;
    match sel {
        0..=7 => byte(sel),
        8 => 0xff * (byte(1) >> 7),
        9 => 0xff * (byte(3) >> 7),
        10 => 0xff * (byte(5) >> 7),
        11 => 0xff * (byte(7) >> 7),
        12 => 0,
        _ => 0xff,
    }
}

pub(super) fn bfe(v: u32, off: u32, width: u32, signed: bool) -> u32 {
    let (off, width) = (off & 31, width & 31);
    if width == 0 {
        return 0;
    }
    let x = (v >> off) & ((1u32 << width) - 1);
    if signed {
        (((x << (32 - width)) as i32) >> (32 - width)) as u32
    } else {
        x
    }
}

pub(super) fn i24(v: u32) -> i64 {
    i64::from(((v << 8) as i32) >> 8)
}

pub(super) fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}
