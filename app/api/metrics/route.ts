import { getServices } from "~/server/services";

/** Prometheus text format: this process's run-once counters, wait times and Node's own metrics. */
export async function GET() {
  const { registry } = getServices().metrics;
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
}
