import { readFileSync } from "node:fs";

interface Profile {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string }; children?: number[] }>;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame as a person reads it: its function, and its script's file or package. */
export interface Frame {
  name: string;
  url: string;
}

/** Where a charge's CPU can go, by the code on the stack (a sample counts for every area on its stack), and its hue in a flame graph. */
export const AREAS: Array<[string, RegExp, string]> = [
  ["Prisma client and its WASM query compiler", /@prisma\/client|^wasm:/, "#e8743b"],
  ["the pg driver and its sockets", /node_modules\/pg/, "#d6a03a"],
  ["async_hooks (Next's AsyncLocalStorage on every promise)", /async_hooks/, "#9c6ade"],
  ["fetch (undici) to the provider", /undici/, "#4aa3a2"],
  ["Next's server (routing, web streams)", /node_modules\/next\/|webstreams/, "#5b8def"],
  ["the app's bundle (tRPC, run-once, zod, handlers)", /\.next\/server\/chunks/, "#e35d6a"],
  ["logging (pino)", /pino|sonic-boom|thread-stream/, "#8ab65e"],
  ["the garbage collector", /^\(garbage collector\)$/, "#a0a0a0"],
];

/** A V8 CPU profile's samples in its last `windowMs`: each stack, root first, with the microseconds it stood for. */
export function stacksOf(file: string, windowMs: number): Array<{ stack: Frame[]; micros: number }> {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  // A frame's script, or its name where it has none (the garbage collector).
  const frames = new Map(
    profile.nodes.map(({ id, callFrame }) => [
      id,
      { name: callFrame.functionName || "(anonymous)", url: callFrame.url || callFrame.functionName },
    ]),
  );
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((c) => [c, node.id])));
  const stacks: Array<{ stack: Frame[]; micros: number }> = [];
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index]!;
    at += micros;
    if (at < profile.endTime - windowMs * 1000) return;
    const stack: Frame[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node))
      stack.unshift(frames.get(node)!);
    stacks.push({ stack, micros });
  });
  return stacks;
}

/** Each area's share of the samples' time on the stack, largest first. */
export function costsByArea(stacks: ReturnType<typeof stacksOf>): Array<{ area: string; share: number }> {
  const spent = new Map<string, number>();
  let total = 0;
  for (const { stack, micros } of stacks) {
    total += micros;
    for (const [area, pattern] of AREAS)
      if (stack.some(({ url }) => pattern.test(url))) spent.set(area, (spent.get(area) ?? 0) + micros);
  }
  return [...spent.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([area, micros]) => ({ area, share: micros / total }));
}
