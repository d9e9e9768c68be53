import { readFileSync } from "node:fs";

interface Profile {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string }; children?: number[] }>;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a charge's CPU can go, by the code on the stack (a sample counts for every area on its stack). */
const AREAS: Array<[string, RegExp]> = [
  ["Prisma client and its WASM query compiler", /@prisma\/client|^wasm:/],
  ["the pg driver and its sockets", /node_modules\/pg/],
  ["async_hooks (Next's AsyncLocalStorage on every promise)", /async_hooks/],
  ["fetch (undici) to the provider", /undici/],
  ["Next's server (routing, web streams)", /node_modules\/next\/|webstreams/],
  ["the app's bundle (tRPC, run-once, zod, handlers)", /\.next\/server\/chunks/],
  ["logging (pino)", /pino|sonic-boom|thread-stream/],
  ["the garbage collector", /^\(garbage collector\)$/],
];

/** Each area's share of a V8 CPU profile's last `windowMs` on the stack, largest first. */
export function costsByArea(file: string, windowMs: number): Array<{ area: string; share: number }> {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  // A frame's script, or its name where it has none (the garbage collector).
  const urls = new Map(
    profile.nodes.map(({ id, callFrame }) => [id, callFrame.url || callFrame.functionName]),
  );
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((c) => [c, node.id])));
  const spent = new Map<string, number>();
  let total = 0;
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index]!;
    at += delta;
    if (at < profile.endTime - windowMs * 1000) return;
    total += delta;
    const stack: string[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node))
      stack.push(urls.get(node)!);
    const onStack = AREAS.filter(([, pattern]) => stack.some((url) => pattern.test(url))).map(
      ([area]) => area,
    );
    for (const area of onStack) spent.set(area, (spent.get(area) ?? 0) + delta);
  });
  return [...spent.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([area, micros]) => ({ area, share: micros / total }));
}
