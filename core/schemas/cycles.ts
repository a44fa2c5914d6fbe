/**
 * `$ref` cycles that consume no instance structure: `a -> b -> a` through `$ref` and the in-place
 * applicators (allOf, anyOf, oneOf, not, if/then/else) apply the same schemas to the same value
 * forever, so a validator recurses until its stack runs out. Recursion under `properties` or
 * `items` is fine: each level consumes part of the instance. Found statically, before any compile.
 */
import type { Corpus } from '../model/index.js';
import { isObject } from '../model/index.js';
import { IN_PLACE_LISTS, IN_PLACE_SINGLES, refsOf, schemaGraph, valueAt, type SchemaLocation } from './walk.js';

interface RefEdge {
  /** The subschema that holds the `$ref`. */
  site: SchemaLocation;
  keyword: '$ref' | '$dynamicRef';
  target: SchemaLocation;
}

export interface RefCycle {
  /** The edges of the loop, starting from the one with the smallest site (a stable order). */
  edges: RefEdge[];
}

const keyOf = (at: SchemaLocation): string => `${at.file}#/${at.path.join('/')}`;

/** Every non-consuming `$ref` cycle among the given schema files, each reported once. */
export function refCycles(corpus: Corpus, files: readonly string[]): RefCycle[] {
  const graph = schemaGraph(corpus);
  const edgeCache = new Map<string, RefEdge[]>();

  // The $refs that apply at `at` itself: its own, and those of its in-place subschemas.
  const edgesOf = (at: SchemaLocation): RefEdge[] => {
    const cached = edgeCache.get(keyOf(at));
    if (cached) return cached;
    const edges: RefEdge[] = [];
    const collect = (site: SchemaLocation): void => {
      const value = valueAt(graph.documents.get(site.file)?.value, site.path);
      if (!isObject(value)) return;
      for (const { keyword, ref } of refsOf(value)) {
        const resolved = graph.resolve(site.file, site.path, ref);
        if (resolved.ok) edges.push({ site, keyword, target: resolved.target });
      }
      for (const keyword of IN_PLACE_LISTS) {
        const list = value[keyword];
        if (Array.isArray(list)) list.forEach((_, index) => collect({ file: site.file, path: [...site.path, keyword, index] }));
      }
      for (const keyword of IN_PLACE_SINGLES) if (isObject(value[keyword])) collect({ file: site.file, path: [...site.path, keyword] });
      if (isObject(value.dependentSchemas)) for (const name of Object.keys(value.dependentSchemas)) collect({ file: site.file, path: [...site.path, 'dependentSchemas', name] });
    };
    collect(at);
    edgeCache.set(keyOf(at), edges);
    return edges;
  };

  // Every node of a cycle but its start is the target of a $ref, and a cycle through a schema of
  // `files` leaves it by one of that schema's own $refs: so the $ref targets of `files` are all the
  // starts needed, not every subschema (which on a large corpus is millions of them).
  const starts: SchemaLocation[] = [];
  for (const file of files) {
    for (const { resolved } of graph.refs(file)) if (resolved.ok) starts.push(resolved.target);
  }

  const state = new Map<string, 'active' | 'done'>();
  // nodes[i] is the i-th schema on the current path; trail[i] the edge that leaves it.
  const nodes: string[] = [];
  const trail: RefEdge[] = [];
  const found = new Map<string, RefCycle>();
  const visit = (at: SchemaLocation): void => {
    const key = keyOf(at);
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'active') {
      const cycle = canonical(trail.slice(nodes.indexOf(key)));
      found.set(cycle.edges.map((edge) => keyOf(edge.site)).join(' '), cycle);
      return;
    }
    state.set(key, 'active');
    nodes.push(key);
    for (const edge of edgesOf(at)) {
      trail.push(edge);
      visit(edge.target);
      trail.pop();
    }
    nodes.pop();
    state.set(key, 'done');
  };
  for (const start of starts) visit(start);
  return [...found.values()];
}

function canonical(edges: RefEdge[]): RefCycle {
  let first = 0;
  edges.forEach((edge, index) => {
    if (keyOf(edge.site) < keyOf(edges[first]?.site ?? edge.site)) first = index;
  });
  return { edges: [...edges.slice(first), ...edges.slice(0, first)] };
}
