// Fails when src/ has an import cycle, between files or between the parts of the house: each
// feature module (src/modules/<name>), each plugin, lib/, db/ and each top-level file count as one
// part. Type-only imports count too: a cycle of types is still two parts that cannot be read apart.
import { cruise } from 'dependency-cruiser';

const result = await cruise(['src'], {
  tsPreCompilationDeps: true,
  doNotFollow: { path: 'node_modules' },
  exclude: { path: '\\.d\\.ts$' },
  tsConfig: { fileName: 'tsconfig.json' },
});

/** the part of the house a source file belongs to */
function partOf(file) {
  const m = /^src\/(modules\/[^/]+|plugins\/[^/]+|lib|db)(\/|$)/.exec(file);
  return m ? m[1].replace(/\.ts$/, '') : file.replace(/\.ts$/, '');
}

const fileEdges = new Map();
const partEdges = new Map();
const add = (map, a, b) => {
  if (!map.has(a)) map.set(a, new Set());
  if (!map.has(b)) map.set(b, new Set());
  if (a !== b) map.get(a).add(b);
};
for (const mod of result.output.modules) {
  if (!mod.source.startsWith('src/')) continue;
  for (const dep of mod.dependencies) {
    if (!dep.resolved.startsWith('src/')) continue;
    add(fileEdges, mod.source, dep.resolved);
    add(partEdges, partOf(mod.source), partOf(dep.resolved));
  }
}

/** strongly connected components with more than one member (Tarjan) */
function cycles(graph) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    onStack = new Set(),
    stack = [],
    out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** one path around a component, for the message */
function loop(graph, comp) {
  const inComp = new Set(comp);
  const start = comp[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start].join(' → ');
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp.join(', ');
}

const fileCycles = cycles(fileEdges);
const partCycles = cycles(partEdges);
for (const c of partCycles) console.error(`cycle between parts: ${loop(partEdges, c)}`);
for (const c of fileCycles) console.error(`cycle between files: ${loop(fileEdges, c)}`);
const files = fileEdges.size;
if (fileCycles.length || partCycles.length) {
  console.error(`${partCycles.length} cycle(s) between parts, ${fileCycles.length} between files (${files} files)`);
  process.exit(1);
}
console.log(`no import cycles (${files} files, ${partEdges.size} parts)`);
