// Draws bench:ui's figures as SVG line charts (docs/images/ui-*.svg), generated from the newest
// bench/results/ui-*.json (or the file given): thread length on a log axis, one line per
// implementation, the value on a log axis, so "flat" reads as a horizontal line. Plain SVG text.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COLOURS = { "ours-react": "#1565c0", "ours-vue": "#2e7d32", "ours-assistant-ui": "#6a1b9a", "ai-sdk": "#ef6c00", "assistant-ui-ai-sdk": "#c62828" };

export const CHARTS = [
  { file: "ui-paint.svg", field: "paintMs", title: "A delta, frame in to the row painted (ms, median)" },
  { file: "ui-main.svg", field: "taskMsPerDelta", title: "Main-thread time per delta (ms)" },
  { file: "ui-script.svg", field: "scriptMsPerDelta", title: "JavaScript time per delta (ms)" },
  { file: "ui-heap.svg", field: "heapLoadedMB", title: "JS heap with the thread loaded, after GC (MB)" },
];

const W = 640;
const H = 360;
const PAD = { left: 56, right: 210, top: 36, bottom: 44 };
const escape = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;");
const log = Math.log10;
const label = (value) => (value >= 1000 ? `${value / 1000}k` : value >= 1 ? String(value) : value.toString());

/** One chart of `field` over the implementations' sizes, as SVG text. */
export function chart(results, { field, title }) {
  const series = Object.entries(results.implementations).map(([name, impl]) => ({
    name,
    label: impl.label,
    points: Object.entries(impl.bySize)
      .map(([size, figures]) => [Number(size), figures[field]])
      .filter(([, value]) => typeof value === "number" && value > 0),
  }));
  const sizes = [...new Set(series.flatMap((s) => s.points.map(([size]) => size)))].sort((a, b) => a - b);
  const values = series.flatMap((s) => s.points.map(([, value]) => value));
  const low = 10 ** Math.floor(log(Math.min(...values)));
  const high = 10 ** Math.ceil(log(Math.max(...values)));
  const x = (size) => PAD.left + ((log(size) - log(sizes[0])) / (log(sizes.at(-1)) - log(sizes[0]) || 1)) * (W - PAD.left - PAD.right);
  const y = (value) => H - PAD.bottom - ((log(value) - log(low)) / (log(high) - log(low))) * (H - PAD.top - PAD.bottom);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`];
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`, `<text x="${PAD.left}" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`);
  for (let tick = low; tick <= high; tick *= 10) {
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`, `<text x="${PAD.left - 6}" y="${y(tick) + 4}" text-anchor="end">${label(tick)}</text>`);
  }
  for (const size of sizes) {
    out.push(`<text x="${x(size)}" y="${H - PAD.bottom + 18}" text-anchor="middle">${label(size)}</text>`);
  }
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">messages in the thread</text>`);
  series.forEach((s, index) => {
    const colour = COLOURS[s.name] ?? "#555";
    const path = s.points.map(([size, value], i) => `${i === 0 ? "M" : "L"}${x(size).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
    out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    for (const [size, value] of s.points) out.push(`<circle cx="${x(size).toFixed(1)}" cy="${y(value).toFixed(1)}" r="3.5" fill="${colour}"><title>${escape(`${s.label}, ${size} messages: ${value.toFixed(2)}`)}</title></circle>`);
    const top = PAD.top + 10 + index * 20;
    out.push(`<rect x="${W - PAD.right + 14}" y="${top - 9}" width="14" height="4" fill="${colour}"/>`, `<text x="${W - PAD.right + 34}" y="${top - 3}">${escape(s.label)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

function newestResults() {
  const dir = `${ROOT}bench/results/`;
  const files = readdirSync(dir).filter((file) => /^ui-\d{4}-\d\d-\d\d\.json$/.test(file)).sort();
  if (files.length === 0) throw new Error("no bench/results/ui-*.json: run node bench/ui/run.mjs first");
  return `${dir}${files.at(-1)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? newestResults();
  const results = JSON.parse(readFileSync(file, "utf8"));
  mkdirSync(`${ROOT}docs/images`, { recursive: true });
  for (const spec of CHARTS) writeFileSync(`${ROOT}docs/images/${spec.file}`, chart(results, spec));
  console.log(`bench:ui charts: ${CHARTS.map((spec) => `docs/images/${spec.file}`).join(", ")} from ${file}`);
}
