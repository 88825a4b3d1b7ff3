-- rocprof-rs rocpd writer: the INSERT statements, one per table the writer fills.
--
-- Each statement follows a `-- name: <key>` line; the writer prepares it once and binds values
-- positionally (?1, ?2, ... in the column order given here). `guid` is never written: its
-- column default carries the session guid. {{uuid}} is the physical-table suffix.

-- name: string
INSERT INTO "rocpd_string{{uuid}}" ("id", "string") VALUES (?1, ?2);

-- name: metadata
INSERT INTO "rocpd_metadata{{uuid}}" ("tag", "value") VALUES (?1, ?2);

-- name: node
INSERT INTO "rocpd_info_node{{uuid}}" ("id", "hash", "machine_id", "system_name", "hostname",
    "release", "version", "hardware_name", "domain_name")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9);

-- name: process
INSERT INTO "rocpd_info_process{{uuid}}" ("id", "nid", "ppid", "pid", "init", "fini", "start",
    "end", "command", "environment", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11);

-- name: thread
INSERT INTO "rocpd_info_thread{{uuid}}" ("id", "nid", "ppid", "pid", "tid")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: agent
INSERT INTO "rocpd_info_agent{{uuid}}" ("id", "nid", "pid", "type", "absolute_index",
    "logical_index", "type_index", "uuid", "name", "model_name", "vendor_name", "product_name",
    "user_name", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14);

-- name: queue
INSERT INTO "rocpd_info_queue{{uuid}}" ("id", "nid", "pid", "name", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: stream
INSERT INTO "rocpd_info_stream{{uuid}}" ("id", "nid", "pid", "name", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: code_object
INSERT INTO "rocpd_info_code_object{{uuid}}" ("id", "nid", "pid", "agent_id", "uri",
    "load_base", "load_size", "load_delta", "storage_type", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10);

-- name: kernel_symbol
INSERT INTO "rocpd_info_kernel_symbol{{uuid}}" ("id", "nid", "pid", "code_object_id",
    "kernel_name", "display_name", "kernel_object", "kernarg_segment_size",
    "kernarg_segment_alignment", "group_segment_size", "private_segment_size", "sgpr_count",
    "arch_vgpr_count", "accum_vgpr_count", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15);

-- name: event
INSERT INTO "rocpd_event{{uuid}}" ("id", "category_id", "stack_id", "parent_stack_id",
    "correlation_id")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: kernel_dispatch
INSERT INTO "rocpd_kernel_dispatch{{uuid}}" ("id", "nid", "pid", "tid", "agent_id", "kernel_id",
    "dispatch_id", "queue_id", "stream_id", "start", "end", "private_segment_size",
    "group_segment_size", "workgroup_size_x", "workgroup_size_y", "workgroup_size_z",
    "grid_size_x", "grid_size_y", "grid_size_z", "region_name_id", "event_id")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
    ?20, ?21);

-- name: pmc_info
INSERT INTO "rocpd_info_pmc{{uuid}}" ("id", "nid", "pid", "agent_id", "target_arch", "event_code",
    "instance_id", "name", "symbol", "description", "long_description", "component", "units",
    "value_type", "block", "expression", "is_constant", "is_derived", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19);

-- name: pmc_event
INSERT INTO "rocpd_pmc_event{{uuid}}" ("event_id", "pmc_id", "value", "extdata")
VALUES (?1, ?2, ?3, ?4);

-- name: event_ext
INSERT INTO "rocpd_event{{uuid}}" ("id", "category_id", "stack_id", "parent_stack_id",
    "correlation_id", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6);

-- name: arg
INSERT INTO "rocpd_arg{{uuid}}" ("event_id", "position", "type", "name", "value")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: region
INSERT INTO "rocpd_region{{uuid}}" ("id", "nid", "pid", "tid", "start", "end", "name_id", "event_id")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8);

-- name: track
INSERT INTO "rocpd_track{{uuid}}" ("id", "nid", "pid", "tid", "name_id")
VALUES (?1, ?2, ?3, ?4, ?5);

-- name: sample
INSERT INTO "rocpd_sample{{uuid}}" ("id", "track_id", "timestamp", "event_id")
VALUES (?1, ?2, ?3, ?4);

-- name: memory_copy
INSERT INTO "rocpd_memory_copy{{uuid}}" ("id", "nid", "pid", "tid", "start", "end", "name_id",
    "dst_agent_id", "dst_address", "src_agent_id", "src_address", "size", "stream_id", "event_id")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14);

-- name: memory_allocate
INSERT INTO "rocpd_memory_allocate{{uuid}}" ("nid", "pid", "tid", "agent_id", "type", "level",
    "start", "end", "address", "size", "queue_id", "stream_id", "event_id", "extdata")
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14);
