-- rocprof-rs rocpd schema: user-facing data views.
--
-- View names and output columns (names and order) match rocpd schema version 3, so queries
-- written for AMD's databases run on ours. Every join compares guid as well as id, because
-- several databases may be attached and unioned into one connection, where only guid tells
-- their rows apart. Category and other name lookups use LEFT JOINs on rocpd_string (one row
-- per id and guid, so they never multiply rows).
--
-- Deliberate differences from the reference: `threads` and `memory_allocations` join the
-- thread/process on their own guid (the reference compares an unrelated alias there, which
-- multiplies rows when databases are merged).

CREATE VIEW IF NOT EXISTS "code_objects" AS
SELECT co.id, co.guid, co.nid, p.pid,
       ag.absolute_index AS agent_abs_index,
       co.uri, co.load_base, co.load_size, co.load_delta,
       co.storage_type AS storage_type_str,
       json_extract(co.extdata, '$.size') AS code_object_size,
       json_extract(co.extdata, '$.storage_type') AS storage_type,
       json_extract(co.extdata, '$.memory_base') AS memory_base,
       json_extract(co.extdata, '$.memory_size') AS memory_size
  FROM "rocpd_info_code_object" co
  JOIN "rocpd_info_agent" ag ON ag.id = co.agent_id AND ag.guid = co.guid
  JOIN "rocpd_info_process" p ON p.id = co.pid AND p.guid = co.guid;

CREATE VIEW IF NOT EXISTS "kernel_symbols" AS
SELECT ks.id, ks.guid, ks.nid, p.pid,
       ks.code_object_id, ks.kernel_name, ks.display_name, ks.kernel_object,
       ks.kernarg_segment_size, ks.kernarg_segment_alignment,
       ks.group_segment_size, ks.private_segment_size,
       ks.sgpr_count, ks.arch_vgpr_count, ks.accum_vgpr_count,
       json_extract(ks.extdata, '$.size') AS kernel_symbol_size,
       json_extract(ks.extdata, '$.kernel_id') AS kernel_id,
       json_extract(ks.extdata, '$.kernel_code_entry_byte_offset') AS kernel_code_entry_byte_offset,
       json_extract(ks.extdata, '$.formatted_kernel_name') AS formatted_kernel_name,
       json_extract(ks.extdata, '$.demangled_kernel_name') AS demangled_kernel_name,
       json_extract(ks.extdata, '$.truncated_kernel_name') AS truncated_kernel_name,
       json_extract(ks.extdata, '$.kernel_address.handle') AS kernel_address
  FROM "rocpd_info_kernel_symbol" ks
  JOIN "rocpd_info_process" p ON p.id = ks.pid AND p.guid = ks.guid;

CREATE VIEW IF NOT EXISTS "processes" AS
SELECT n.id AS nid, n.machine_id, n.system_name, n.hostname,
       n.release AS system_release, n.version AS system_version,
       p.guid, p.ppid, p.pid, p.init, p.start, p.end, p.fini, p.command
  FROM "rocpd_info_process" p
  JOIN "rocpd_info_node" n ON n.id = p.nid AND n.guid = p.guid;

CREATE VIEW IF NOT EXISTS "threads" AS
SELECT n.id AS nid, n.machine_id, n.system_name, n.hostname,
       n.release AS system_release, n.version AS system_version,
       p.guid, p.ppid, p.pid, t.tid, t.start, t.end, t.name
  FROM "rocpd_info_thread" t
  JOIN "rocpd_info_process" p ON p.id = t.pid AND p.guid = t.guid
  JOIN "rocpd_info_node" n ON n.id = t.nid AND n.guid = t.guid;

CREATE VIEW IF NOT EXISTS "regions" AS
SELECT r.id, r.guid, cat.string AS category, nm.string AS name,
       r.nid, p.pid, t.tid, r.start, r.end, (r.end - r.start) AS duration,
       r.event_id, ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id,
       ev.extdata, ev.call_stack, ev.line_info
  FROM "rocpd_region" r
  JOIN "rocpd_event" ev ON ev.id = r.event_id AND ev.guid = r.guid
  JOIN "rocpd_string" nm ON nm.id = r.name_id AND nm.guid = r.guid
  JOIN "rocpd_info_process" p ON p.id = r.pid AND p.guid = r.guid
  JOIN "rocpd_info_thread" t ON t.id = r.tid AND t.guid = r.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

CREATE VIEW IF NOT EXISTS "region_args" AS
SELECT r.id, r.guid, r.nid, p.pid, a.type, a.name, a.value
  FROM "rocpd_region" r
  JOIN "rocpd_event" ev ON ev.id = r.event_id AND ev.guid = r.guid
  JOIN "rocpd_arg" a ON a.event_id = ev.id AND a.guid = r.guid
  JOIN "rocpd_info_process" p ON p.id = r.pid AND p.guid = r.guid;

CREATE VIEW IF NOT EXISTS "samples" AS
SELECT s.id, s.guid, cat.string AS category, nm.string AS name,
       tr.nid, p.pid, th.tid, s.timestamp, s.event_id,
       ev.stack_id AS stack_id, ev.parent_stack_id AS parent_stack_id,
       ev.correlation_id AS corr_id, ev.extdata AS extdata,
       ev.call_stack AS call_stack, ev.line_info AS line_info
  FROM "rocpd_sample" s
  JOIN "rocpd_track" tr ON tr.id = s.track_id AND tr.guid = s.guid
  JOIN "rocpd_event" ev ON ev.id = s.event_id AND ev.guid = s.guid
  JOIN "rocpd_info_process" p ON p.id = tr.pid AND p.guid = tr.guid
  JOIN "rocpd_info_thread" th ON th.id = tr.tid AND th.guid = tr.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid
  LEFT JOIN "rocpd_string" nm ON nm.id = tr.name_id AND nm.guid = tr.guid;

-- Samples shaped like regions (start = end = timestamp) so both can be unioned.
CREATE VIEW IF NOT EXISTS "sample_regions" AS
SELECT s.id, s.guid, cat.string AS category, nm.string AS name,
       tr.nid, p.pid, th.tid,
       s.timestamp AS start, s.timestamp AS "END", 0 AS duration,
       s.event_id, ev.stack_id AS stack_id, ev.parent_stack_id AS parent_stack_id,
       ev.correlation_id AS corr_id, ev.extdata AS extdata,
       ev.call_stack AS call_stack, ev.line_info AS line_info
  FROM "rocpd_sample" s
  JOIN "rocpd_track" tr ON tr.id = s.track_id AND tr.guid = s.guid
  JOIN "rocpd_event" ev ON ev.id = s.event_id AND ev.guid = s.guid
  JOIN "rocpd_info_process" p ON p.id = tr.pid AND p.guid = tr.guid
  JOIN "rocpd_info_thread" th ON th.id = tr.tid AND th.guid = tr.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid
  LEFT JOIN "rocpd_string" nm ON nm.id = tr.name_id AND nm.guid = tr.guid;

CREATE VIEW IF NOT EXISTS "regions_and_samples" AS
SELECT * FROM "regions"
UNION ALL
SELECT * FROM "sample_regions";

-- One row per kernel dispatch. The process is reached through the dispatch's queue, so every
-- dispatch needs a queue row (the writer always writes one).
CREATE VIEW IF NOT EXISTS "kernels" AS
SELECT kd.id, kd.guid, t.tid, cat.string AS category, rg.string AS region,
       ks.display_name AS name, kd.nid, p.pid,
       ag.absolute_index AS agent_abs_index, ag.logical_index AS agent_log_index,
       ag.type_index AS agent_type_index, ag.type AS agent_type,
       ks.code_object_id AS code_object_id, kd.kernel_id, kd.dispatch_id,
       kd.stream_id, kd.queue_id, q.name AS queue, st.name AS stream,
       kd.start, kd.end, (kd.end - kd.start) AS duration,
       kd.grid_size_x AS grid_x, kd.grid_size_y AS grid_y, kd.grid_size_z AS grid_z,
       kd.workgroup_size_x AS workgroup_x, kd.workgroup_size_y AS workgroup_y,
       kd.workgroup_size_z AS workgroup_z,
       kd.group_segment_size AS lds_size, kd.private_segment_size AS scratch_size,
       ks.arch_vgpr_count AS vgpr_count, ks.accum_vgpr_count, ks.sgpr_count,
       ks.group_segment_size AS static_lds_size,
       ks.private_segment_size AS static_scratch_size,
       ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id
  FROM "rocpd_kernel_dispatch" kd
  JOIN "rocpd_info_agent" ag ON ag.id = kd.agent_id AND ag.guid = kd.guid
  JOIN "rocpd_event" ev ON ev.id = kd.event_id AND ev.guid = kd.guid
  JOIN "rocpd_string" rg ON rg.id = kd.region_name_id AND rg.guid = kd.guid
  JOIN "rocpd_info_kernel_symbol" ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
  LEFT JOIN "rocpd_info_stream" st ON st.id = kd.stream_id AND st.guid = kd.guid
  LEFT JOIN "rocpd_info_queue" q ON q.id = kd.queue_id AND q.guid = kd.guid
  JOIN "rocpd_info_process" p ON p.id = q.pid AND p.guid = q.guid
  JOIN "rocpd_info_thread" t ON t.id = kd.tid AND t.guid = kd.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

CREATE VIEW IF NOT EXISTS "pmc_info" AS
SELECT pi.id, pi.guid, pi.nid, p.pid, ag.absolute_index AS agent_abs_index,
       pi.is_constant, pi.is_derived, pi.name, pi.description, pi.block, pi.expression
  FROM "rocpd_info_pmc" pi
  JOIN "rocpd_info_agent" ag ON ag.id = pi.agent_id AND ag.guid = pi.guid
  JOIN "rocpd_info_process" p ON p.id = pi.pid AND p.guid = pi.guid;

CREATE VIEW IF NOT EXISTS "pmc_events" AS
SELECT pe.id, pe.guid, pe.pmc_id, ev.id AS event_id, cat.string AS category,
       ks.display_name AS name, kd.nid, p.pid, kd.dispatch_id,
       kd.start, kd.end, (kd.end - kd.start) AS duration,
       pi.name AS counter_name, pe.value AS counter_value
  FROM "rocpd_pmc_event" pe
  JOIN "rocpd_info_pmc" pi ON pi.id = pe.pmc_id AND pi.guid = pe.guid
  JOIN "rocpd_event" ev ON ev.id = pe.event_id AND ev.guid = pe.guid
  JOIN "rocpd_kernel_dispatch" kd ON kd.event_id = pe.event_id AND kd.guid = pe.guid
  JOIN "rocpd_info_process" p ON p.id = kd.pid AND p.guid = kd.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid
  LEFT JOIN "rocpd_info_kernel_symbol" ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid;

CREATE VIEW IF NOT EXISTS "events_args" AS
SELECT ev.id AS event_id, cat.string AS category, ev.stack_id, ev.parent_stack_id,
       ev.correlation_id, a.position AS arg_position, a.type AS arg_type,
       a.name AS arg_name, a.value AS arg_value, ev.call_stack, ev.line_info, a.extdata
  FROM "rocpd_event" ev
  JOIN "rocpd_arg" a ON a.event_id = ev.id AND a.guid = ev.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

-- Arguments named `stream`, with the stream they refer to (arg extdata carries stream_id).
CREATE VIEW IF NOT EXISTS "stream_args" AS
SELECT a.id AS argument_id, a.event_id AS event_id, a.position AS arg_position,
       a.type AS arg_type, a.value AS arg_value,
       json_extract(a.extdata, '$.stream_id') AS stream_id,
       st.nid, p.pid, st.name AS stream_name, st.extdata AS extdata
  FROM "rocpd_arg" a
  JOIN "rocpd_info_stream" st ON st.id = json_extract(a.extdata, '$.stream_id') AND st.guid = a.guid
  JOIN "rocpd_info_process" p ON p.id = st.pid AND p.guid = st.guid
 WHERE a.name = 'stream';

CREATE VIEW IF NOT EXISTS "memory_copies" AS
SELECT mc.id, mc.guid, cat.string AS category, mc.nid, p.pid, t.tid,
       mc.start, mc.end, (mc.end - mc.start) AS duration,
       nm.string AS name, rg.string AS region_name,
       mc.stream_id, mc.queue_id, st.name AS stream_name, q.name AS queue_name, mc.size,
       dst.name AS dst_device, dst.absolute_index AS dst_agent_abs_index,
       dst.logical_index AS dst_agent_log_index, dst.type_index AS dst_agent_type_index,
       dst.type AS dst_agent_type, mc.dst_address,
       src.name AS src_device, src.absolute_index AS src_agent_abs_index,
       src.logical_index AS src_agent_log_index, src.type_index AS src_agent_type_index,
       src.type AS src_agent_type, mc.src_address,
       ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id
  FROM "rocpd_memory_copy" mc
  JOIN "rocpd_string" nm ON nm.id = mc.name_id AND nm.guid = mc.guid
  LEFT JOIN "rocpd_string" rg ON rg.id = mc.region_name_id AND rg.guid = mc.guid
  JOIN "rocpd_info_agent" dst ON dst.id = mc.dst_agent_id AND dst.guid = mc.guid
  JOIN "rocpd_info_agent" src ON src.id = mc.src_agent_id AND src.guid = mc.guid
  LEFT JOIN "rocpd_info_queue" q ON q.id = mc.queue_id AND q.guid = mc.guid
  LEFT JOIN "rocpd_info_stream" st ON st.id = mc.stream_id AND st.guid = mc.guid
  JOIN "rocpd_event" ev ON ev.id = mc.event_id AND ev.guid = mc.guid
  JOIN "rocpd_info_process" p ON p.id = mc.pid AND p.guid = mc.guid
  JOIN "rocpd_info_thread" t ON t.id = mc.tid AND t.guid = mc.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

CREATE VIEW IF NOT EXISTS "memory_allocations" AS
SELECT ma.id, ma.guid, cat.string AS category, ma.nid, p.pid, t.tid,
       ma.start, ma.end, (ma.end - ma.start) AS duration, ma.type, ma.level,
       ag.name AS agent_name, ag.absolute_index AS agent_abs_index,
       ag.logical_index AS agent_log_index, ag.type_index AS agent_type_index,
       ag.type AS agent_type, ma.address, ma.size,
       ma.queue_id, q.name AS queue_name, ma.stream_id, st.name AS stream_name,
       ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id
  FROM "rocpd_memory_allocate" ma
  LEFT JOIN "rocpd_info_agent" ag ON ag.id = ma.agent_id AND ag.guid = ma.guid
  LEFT JOIN "rocpd_info_queue" q ON q.id = ma.queue_id AND q.guid = ma.guid
  LEFT JOIN "rocpd_info_stream" st ON st.id = ma.stream_id AND st.guid = ma.guid
  JOIN "rocpd_event" ev ON ev.id = ma.event_id AND ev.guid = ma.guid
  JOIN "rocpd_info_process" p ON p.id = ma.pid AND p.guid = ma.guid
  JOIN "rocpd_info_thread" t ON t.id = ma.tid AND t.guid = ma.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

CREATE VIEW IF NOT EXISTS "scratch_memory" AS
SELECT ma.id, ma.guid, ma.nid, p.pid, ma.type AS operation,
       ag.name AS agent_name, ag.absolute_index AS agent_abs_index,
       ag.logical_index AS agent_log_index, ag.type_index AS agent_type_index,
       ag.type AS agent_type, ma.queue_id, t.tid,
       json_extract(ma.extdata, '$.flags') AS alloc_flags,
       ma.start, ma.end, (ma.end - ma.start) AS duration, ma.size, ma.address,
       ev.correlation_id, ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id,
       cat.string AS category, ev.extdata AS event_extdata
  FROM "rocpd_memory_allocate" ma
  LEFT JOIN "rocpd_info_agent" ag ON ag.id = ma.agent_id AND ag.guid = ma.guid
  JOIN "rocpd_event" ev ON ev.id = ma.event_id AND ev.guid = ma.guid
  JOIN "rocpd_info_process" p ON p.id = ma.pid AND p.guid = ma.guid
  JOIN "rocpd_info_thread" t ON t.id = ma.tid AND t.guid = ma.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid
 WHERE ma.level = 'SCRATCH'
 ORDER BY ma.start;

-- Counter values per dispatch and counter, summed over dimension instances.
CREATE VIEW IF NOT EXISTS "counters_collection" AS
SELECT MIN(pe.id) AS id, pe.guid, kd.dispatch_id, kd.kernel_id, ev.id AS event_id,
       ev.correlation_id, ev.stack_id, ev.parent_stack_id, p.pid, t.tid, kd.agent_id,
       ag.absolute_index AS agent_abs_index, ag.logical_index AS agent_log_index,
       ag.type_index AS agent_type_index, ag.type AS agent_type, kd.queue_id,
       kd.grid_size_x AS grid_size_x, kd.grid_size_y AS grid_size_y,
       kd.grid_size_z AS grid_size_z,
       (kd.grid_size_x * kd.grid_size_y * kd.grid_size_z) AS grid_size,
       ks.display_name AS kernel_name, rg.string AS kernel_region,
       kd.workgroup_size_x AS workgroup_size_x, kd.workgroup_size_y AS workgroup_size_y,
       kd.workgroup_size_z AS workgroup_size_z,
       (kd.workgroup_size_x * kd.workgroup_size_y * kd.workgroup_size_z) AS workgroup_size,
       kd.group_segment_size AS lds_block_size, kd.private_segment_size AS scratch_size,
       ks.arch_vgpr_count AS vgpr_count, ks.accum_vgpr_count, ks.sgpr_count,
       pi.name AS counter_name, pi.symbol AS counter_symbol, pi.component,
       pi.description, pi.block, pi.expression, pi.value_type, pi.id AS counter_id,
       SUM(pe.value) AS value, kd.start, kd.end, pi.is_constant, pi.is_derived,
       (kd.end - kd.start) AS duration, cat.string AS category, kd.nid, ev.extdata,
       ks.code_object_id
  FROM "rocpd_pmc_event" pe
  JOIN "rocpd_info_pmc" pi ON pi.id = pe.pmc_id AND pi.guid = pe.guid
  JOIN "rocpd_event" ev ON ev.id = pe.event_id AND ev.guid = pe.guid
  JOIN "rocpd_kernel_dispatch" kd ON kd.event_id = pe.event_id AND kd.guid = pe.guid
  JOIN "rocpd_info_agent" ag ON ag.id = kd.agent_id AND ag.guid = kd.guid
  JOIN "rocpd_info_kernel_symbol" ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
  JOIN "rocpd_info_process" p ON p.id = kd.pid AND p.guid = kd.guid
  JOIN "rocpd_info_thread" t ON t.id = kd.tid AND t.guid = kd.guid
  LEFT JOIN "rocpd_string" rg ON rg.id = kd.region_name_id AND rg.guid = kd.guid
  LEFT JOIN "rocpd_string" cat ON cat.id = ev.category_id AND cat.guid = ev.guid
 GROUP BY pe.guid, kd.dispatch_id, pi.name, kd.agent_id;
