-- rocprof-rs rocpd schema: summary views (names and columns as in rocpd schema version 3).
-- Durations are reported in microseconds, as the reference does.

-- Kernels by total GPU time.
CREATE VIEW IF NOT EXISTS "top_kernels" AS
SELECT ks.display_name AS name,
       COUNT(kd.kernel_id) AS total_calls,
       SUM(kd.end - kd.start) / 1000.0 AS total_duration,
       (SUM(kd.end - kd.start) / COUNT(kd.kernel_id)) / 1000.0 AS average,
       SUM(kd.end - kd.start) * 100.0
           / (SELECT SUM(all_kd.end - all_kd.start) FROM "rocpd_kernel_dispatch" all_kd) AS percentage
  FROM "rocpd_kernel_dispatch" kd
  JOIN "rocpd_info_kernel_symbol" ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
 GROUP BY name
 ORDER BY total_duration DESC;

-- Per agent: GPU time of kernels and copies (by destination), over the wall time they span.
CREATE VIEW IF NOT EXISTS "busy" AS
WITH gpu_ops AS (
    SELECT agent_id, guid, start, "end" FROM "rocpd_kernel_dispatch"
    UNION ALL
    SELECT dst_agent_id AS agent_id, guid, start, "end" FROM "rocpd_memory_copy"
),
per_agent AS (
    SELECT agent_id, guid, SUM("end" - start) AS GpuTime FROM gpu_ops GROUP BY agent_id, guid
),
wall AS (
    SELECT MAX("end") - MIN(start) AS WallTime FROM gpu_ops
)
SELECT pa.agent_id, ag.type, pa.GpuTime, w.WallTime, pa.GpuTime * 1.0 / w.WallTime AS Busy
  FROM per_agent pa
  CROSS JOIN wall w
  JOIN "rocpd_info_agent" ag ON ag.id = pa.agent_id AND ag.guid = pa.guid;

-- Kernels, memory copies and CPU regions together, by total time.
CREATE VIEW IF NOT EXISTS "top" AS
WITH ops AS (
    SELECT ks.display_name AS name, (kd.end - kd.start) AS duration
      FROM "rocpd_kernel_dispatch" kd
      JOIN "rocpd_info_kernel_symbol" ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
    UNION ALL
    SELECT s.string AS name, (mc.end - mc.start) AS duration
      FROM "rocpd_memory_copy" mc
      JOIN "rocpd_string" s ON s.id = mc.name_id AND s.guid = mc.guid
    UNION ALL
    SELECT s.string AS name, (r.end - r.start) AS duration
      FROM "rocpd_region" r
      JOIN "rocpd_string" s ON s.id = r.name_id AND s.guid = r.guid
),
total AS (
    SELECT SUM(d) AS total_time FROM (
        SELECT "end" - start AS d FROM "rocpd_kernel_dispatch"
        UNION ALL SELECT "end" - start FROM "rocpd_memory_copy"
        UNION ALL SELECT "end" - start FROM "rocpd_region"
    )
)
SELECT name,
       COUNT(*) AS total_calls,
       SUM(duration) / 1000.0 AS total_duration,
       (SUM(duration) / COUNT(*)) / 1000.0 AS average,
       SUM(duration) * 100.0 / total.total_time AS percentage
  FROM ops CROSS JOIN total
 GROUP BY name
 ORDER BY total_duration DESC;
