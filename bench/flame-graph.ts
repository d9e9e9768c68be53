import path from "node:path";
import { AREAS } from "./cpu-profile";
import type { Frame, stacksOf } from "./cpu-profile";

interface Node {
  frame: Frame;
  micros: number;
  children: Map<string, Node>;
}

const WIDTH = 1200;
const ROW = 16;
/** The hue of code in no area (Node's own, the idle loop's): the garbage collector's grey. */
const OTHER_HUE = "#a0a0a0";

const labelOf = ({ name, url }: Frame) => {
  const file = url.includes("node_modules/") ? url.split("node_modules/").at(-1)! : path.basename(url);
  return file && file !== name ? `${name} (${file})` : name;
};
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The samples as a flame graph in SVG: callers below, callees above, width the time on the stack.
 * Drawn here: the maintained tools (speedscope, 0x, clinic) draw HTML pages that need a browser, not an image.
 */
export function flameGraph(stacks: ReturnType<typeof stacksOf>, title: string): string {
  const root: Node = { frame: { name: "all", url: "" }, micros: 0, children: new Map() };
  for (const { stack, micros } of stacks) {
    if (stack.at(-1)?.name === "(idle)") continue;
    if (stack[0]?.name === "(root)") stack.shift();
    root.micros += micros;
    let node = root;
    for (const frame of stack) {
      const key = labelOf(frame);
      if (!node.children.has(key)) node.children.set(key, { frame, micros: 0, children: new Map() });
      node = node.children.get(key)!;
      node.micros += micros;
    }
  }
  const rects: string[] = [];
  let depth = 0;
  const draw = (node: Node, x: number, level: number) => {
    const width = (node.micros / root.micros) * WIDTH;
    if (width < 0.3) return;
    depth = Math.max(depth, level);
    const hue = AREAS.find(([, pattern]) => pattern.test(node.frame.url))?.[2] ?? OTHER_HUE;
    const label = labelOf(node.frame);
    const fits = Math.floor(width / 6.5);
    const text = label.length <= fits ? label : width > 40 ? node.frame.name.slice(0, fits) : "";
    const share = ((node.micros / root.micros) * 100).toFixed(1);
    rects.push(
      `<g transform="translate(${x.toFixed(1)},-${(level + 1) * ROW})"><title>${escape(label)}: ${share}%</title>` +
        `<rect width="${width.toFixed(1)}" height="${ROW - 1}" fill="${hue}"/>` +
        (text ? `<text x="3" y="${ROW - 4}">${escape(text)}</text>` : "") +
        `</g>`,
    );
    let childX = x;
    for (const child of [...node.children.values()].sort((a, b) => b.micros - a.micros)) {
      draw(child, childX, level + 1);
      childX += (child.micros / root.micros) * WIDTH;
    }
  };
  draw(root, 0, 0);
  const legend = AREAS.map(([area, , hue]) => `<tspan fill="${hue}">■</tspan> ${escape(area)}`);
  const top = 3 * ROW;
  const height = top + (depth + 2) * ROW;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">
<text x="0" y="13" font-size="13">${escape(title)}</text>
<text x="0" y="${2 * ROW}" font-size="10">${legend.slice(0, 4).join("   ")}</text>
<text x="0" y="${3 * ROW - 2}" font-size="10">${legend.slice(4).join("   ")}</text>
<g transform="translate(0,${height})">${rects.join("\n")}</g>
</svg>
`;
}
