// ForceAtlas2 off the main thread: the page posts nodes (with their current positions) and
// edges, this worker runs the layout in rounds and posts the positions back after each round, so
// the drawing settles visibly while the page stays responsive. A newer run replaces an older one.
/* global importScripts, graphology, forceAtlas2 */
"use strict";

// same origin as this file, so the page's CSP (script-src 'self') allows it
importScripts(
  "../vendor/graphology-0.26.0.umd.min.js",
  "../vendor/graphology-layout-forceatlas2-0.10.1.min.js"
);

var current = 0; // the id of the run in progress; an older run stops at its next round

function build(nodes, edges) {
  var graph = new graphology.Graph({ type: "undirected", multi: false });
  nodes.forEach(function (n) {
    graph.addNode(n.key, { x: n.x, y: n.y, size: n.size || 1 });
  });
  edges.forEach(function (e) {
    if (e.source === e.target || !graph.hasNode(e.source) || !graph.hasNode(e.target)) return;
    // several links between two blocks pull as one, harder
    var key = graph.edge(e.source, e.target);
    if (key === undefined) graph.addEdge(e.source, e.target, { weight: e.weight || 1 });
    else graph.updateEdgeAttribute(key, "weight", function (w) { return w + (e.weight || 1); });
  });
  return graph;
}

function positions(graph) {
  var out = {};
  graph.forEachNode(function (key, attrs) {
    out[key] = { x: attrs.x, y: attrs.y };
  });
  return out;
}

function run(id, graph, rounds, perRound, settings) {
  if (id !== current) return; // superseded
  forceAtlas2.assign(graph, { iterations: perRound, settings: settings });
  rounds -= 1;
  self.postMessage({ id: id, positions: positions(graph), done: rounds <= 0 });
  if (rounds > 0) {
    // yield between rounds, so a newer message can take over
    setTimeout(function () { run(id, graph, rounds, perRound, settings); }, 0);
  }
}

self.onmessage = function (event) {
  var msg = event.data || {};
  current = msg.id;
  var graph = build(msg.nodes || [], msg.edges || []);
  if (graph.order === 0) {
    self.postMessage({ id: msg.id, positions: {}, done: true });
    return;
  }
  var settings = forceAtlas2.inferSettings(graph);
  settings.edgeWeightInfluence = 1;
  settings.adjustSizes = false;
  // small graphs settle in a few hundred iterations; big ones get fewer, cheaper rounds
  var total = graph.order > 500 ? 150 : graph.order > 100 ? 300 : 500;
  var perRound = 25;
  run(msg.id, graph, Math.ceil(total / perRound), perRound, settings);
};
