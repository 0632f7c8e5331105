// `node bench/ui/heap-diff.mjs` (after `npm run build`): what the memory page holds more after
// showing each conversation once than with one shown. Two heap snapshots of bench/ui/memory.mjs's
// page (BENCH_UI_CONVERSATIONS, default 10), one with the first conversation shown, one after
// showing each in turn; prints the node kinds (type and name) whose retained count or self size
// grew most, and for the largest new strings, the chain of retainers that keeps one alive.
import { launchChromium } from "../../tests/chromium.mjs";
import { bundle, serve } from "./run.mjs";

const CONVERSATIONS = Number(process.env.BENCH_UI_CONVERSATIONS ?? 10);

/** The page's heap snapshot, parsed (the DevTools format: flat arrays described by `snapshot.meta`). */
async function snapshot(cdp) {
  await cdp.send("HeapProfiler.collectGarbage");
  const chunks = [];
  const collect = ({ chunk }) => chunks.push(chunk);
  cdp.on("HeapProfiler.addHeapSnapshotChunk", collect);
  await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false, captureNumericValue: false });
  cdp.off("HeapProfiler.addHeapSnapshotChunk", collect);
  return JSON.parse(chunks.join(""));
}

/** The snapshot's nodes as { id, type, name, size, edges: [{ name, to }] } by index. */
function nodesOf(heap) {
  const { node_fields: nodeFields, edge_fields: edgeFields, node_types: [nodeTypes], edge_types: [edgeTypes] } = heap.snapshot.meta;
  const N = nodeFields.length;
  const E = edgeFields.length;
  const at = (field) => nodeFields.indexOf(field);
  const nodes = [];
  let edge = 0;
  for (let i = 0; i < heap.nodes.length; i += N) {
    const node = {
      id: heap.nodes[i + at("id")],
      type: nodeTypes[heap.nodes[i + at("type")]],
      name: heap.strings[heap.nodes[i + at("name")]],
      size: heap.nodes[i + at("self_size")],
      edges: [],
      retainers: [],
    };
    const count = heap.nodes[i + at("edge_count")];
    for (let e = 0; e < count; e++, edge += E) {
      const type = edgeTypes[heap.edges[edge + edgeFields.indexOf("type")]];
      const nameOrIndex = heap.edges[edge + edgeFields.indexOf("name_or_index")];
      const name = type === "element" || type === "hidden" ? String(nameOrIndex) : heap.strings[nameOrIndex];
      node.edges.push({ type, name, to: heap.edges[edge + edgeFields.indexOf("to_node")] / N });
    }
    nodes.push(node);
  }
  for (const [index, node] of nodes.entries()) for (const { type, name, to } of node.edges) if (type !== "weak") nodes[to].retainers.push({ type, name, from: index });
  return nodes;
}

const kindOf = (node) => (node.type === "string" || node.type === "concatenated string" || node.type === "sliced string" ? node.type : `${node.type} ${node.name}`);

function totals(nodes) {
  const byKind = new Map();
  for (const node of nodes) {
    const kind = kindOf(node);
    const total = byKind.get(kind) ?? { count: 0, size: 0 };
    total.count += 1;
    total.size += node.size;
    byKind.set(kind, total);
  }
  return byKind;
}

/** The first `depth` retainers of `index`, each the nearest to a GC root not yet seen. */
function retainerChain(nodes, index, depth = 12) {
  const chain = [];
  const seen = new Set([index]);
  for (let at = index; chain.length < depth; ) {
    const next = nodes[at].retainers.find(({ from }) => !seen.has(from));
    if (next === undefined) break;
    seen.add(next.from);
    chain.push(`${next.type}:${next.name} <- ${nodes[next.from].type} ${nodes[next.from].name.slice(0, 60)}`);
    at = next.from;
  }
  return chain;
}

const browser = await launchChromium({ viewport: { width: 1000, height: 800 } });
try {
  await serve(browser.context, new Map([["memory-react", await bundle("memory-react.jsx")]]));
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await page.goto(`http://localhost:4921/?impl=memory-react&conversations=${CONVERSATIONS}`);
  await page.waitForFunction(() => window.memory !== undefined, undefined, { timeout: 300_000 });
  await page.evaluate(() => window.memory.show(0));
  const storedBefore = await page.evaluate(() => window.memory.storedChars());
  const before = nodesOf(await snapshot(cdp));
  for (let c = 1; c <= CONVERSATIONS; c++) await page.evaluate((n) => window.memory.show(n), c % CONVERSATIONS);
  const storedAfter = await page.evaluate(() => window.memory.storedChars());
  const after = nodesOf(await snapshot(cdp));
  const MB = 1024 * 1024;
  const sum = (nodes) => nodes.reduce((total, node) => total + node.size, 0) / MB;
  console.log(`heap-diff: ${CONVERSATIONS} conversations; self sizes ${sum(before).toFixed(1)} -> ${sum(after).toFixed(1)} MB; stored text ${(storedBefore / MB).toFixed(1)} -> ${(storedAfter / MB).toFixed(1)} MB`);
  const [was, now] = [totals(before), totals(after)];
  const grown = [...now].map(([kind, total]) => ({ kind, count: total.count - (was.get(kind)?.count ?? 0), size: total.size - (was.get(kind)?.size ?? 0) }));
  grown.sort((a, b) => b.size - a.size);
  for (const { kind, count, size } of grown.slice(0, 20)) console.log(`  ${(size / MB).toFixed(2).padStart(7)} MB ${String(count).padStart(8)} more  ${kind.slice(0, 100)}`);
  // Nodes of the second snapshot not in the first (ids are stable between snapshots of one page).
  const old = new Set(before.map((node) => node.id));
  const added = after.map((node, index) => ({ node, index })).filter(({ node }) => !old.has(node.id));
  console.log(`heap-diff: ${added.length} nodes new, ${(added.reduce((t, { node }) => t + node.size, 0) / MB).toFixed(1)} MB`);
  const sample = added.filter(({ node }) => node.type !== "code" && node.type !== "hidden").sort((a, b) => b.node.size - a.node.size).slice(0, 3);
  // Text of a conversation shown once and left (not the one shown now, conversation 0).
  sample.push(...added.filter(({ node }) => node.type === "string" && /^3\/\d+: /.test(node.name)).slice(0, 2));
  sample.push(...added.filter(({ node }) => node.type === "object" && node.name === "Object").slice(0, 2));
  sample.push(...added.filter(({ node }) => node.type === "array").slice(0, 2));
  for (const { node, index } of sample) {
    console.log(`\n  new ${node.type} ${JSON.stringify(node.name.slice(0, 60))} (${node.size} bytes), retained by:`);
    for (const line of retainerChain(after, index)) console.log(`    ${line}`);
  }
} finally {
  await browser.close();
}
