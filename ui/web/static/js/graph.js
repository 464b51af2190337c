// ctx graph view: draws /graph's ego network or cluster overview with sigma.js over one
// graphology graph (the single source of truth for the drawing). The layout (ForceAtlas2) runs
// in graph-layout-worker.js, off the main thread. Clicking a block re-focuses: the new focus's
// neighbourhood is grown onto what is shown (the server evicts the farthest nodes past the cap),
// the address becomes /graph?focus=<id> (history.pushState, so it can be shared and Back works)
// and the textual lists below the drawing are fetched again. Titles only ever reach the page.
//
// No inline script anywhere (the CSP forbids it): the page's #graph-view carries what this needs
// in data- attributes. htmx may swap the page in and out, and runs this file again each time it
// brings the page: the functions are defined once, each new #graph-view gets its own view.
(function () {
  "use strict";

  if (window.ctxGraph) {
    window.ctxGraph.start();
    return;
  }

  var DIRECTED = { supersedes: true, causal: true, factual: true };
  var loading = {}; // script src -> Promise
  var view = null; // the live view, if the page shows one

  function loadScript(src, global) {
    if (window[global]) return Promise.resolve();
    if (!loading[src]) {
      loading[src] = new Promise(function (resolve, reject) {
        var el = document.createElement("script");
        el.src = src;
        el.onload = function () { resolve(); };
        el.onerror = function () { reject(new Error("could not load " + src)); };
        document.head.appendChild(el);
      });
    }
    return loading[src];
  }

  function sigmaClass() {
    var S = window.Sigma;
    if (typeof S === "function") return S;
    return S && (S.Sigma || S.default);
  }

  function fetchJSON(url, options) {
    var opts = options || {};
    opts.credentials = "same-origin";
    opts.headers = Object.assign({ Accept: "application/json" }, opts.headers || {});
    return fetch(url, opts).then(function (res) {
      var kind = res.headers.get("content-type") || "";
      if (kind.indexOf("application/json") === -1) {
        throw new Error("your session may have ended: reload the page to sign in again");
      }
      return res.json().then(function (body) {
        if (!res.ok) throw new Error(body.message || "the server refused (" + res.status + ")");
        return body;
      });
    });
  }

  function pageUrl(focus, depth, cap) {
    if (!focus) return "/graph";
    var q = "focus=" + encodeURIComponent(focus);
    if (depth !== 1) q += "&depth=" + depth;
    if (cap !== 200) q += "&cap=" + cap;
    return "/graph?" + q;
  }

  function palette(root) {
    var css = getComputedStyle(root);
    function v(name, fallback) { return css.getPropertyValue(name).trim() || fallback; }
    var page = getComputedStyle(document.documentElement);
    return {
      focus: v("--graph-focus", "#b42318"),
      near: v("--graph-near", "#0a58ca"),
      far: v("--graph-far", "#6e7781"),
      edge: v("--graph-edge", "#afb8c1"),
      cluster: v("--graph-cluster", "#1a7f37"),
      label: v("--graph-label", "#1b1f24"),
      panel: page.getPropertyValue("--panel").trim() || "#f6f8fa",
      line: page.getPropertyValue("--line").trim() || "#d0d7de",
      font: getComputedStyle(document.body).fontFamily || "sans-serif"
    };
  }

  // A hover box in the page's colours (sigma's own is white, unreadable in the dark theme).
  function hoverDrawer(view) {
    return function (ctx, data, settings) {
      var colors = view.colors;
      var size = settings.labelSize;
      ctx.font = settings.labelWeight + " " + size + "px " + settings.labelFont;
      var label = typeof data.label === "string" ? data.label : "";
      var width = ctx.measureText(label).width + 10;
      ctx.fillStyle = colors.panel;
      ctx.strokeStyle = colors.line;
      ctx.beginPath();
      ctx.arc(data.x, data.y, data.size + 3, 0, Math.PI * 2);
      ctx.fill();
      if (label) {
        ctx.beginPath();
        ctx.rect(data.x + data.size + 2, data.y - size / 2 - 5, width, size + 10);
        ctx.fill();
        ctx.stroke();
        ctx.fillStyle = colors.label;
        ctx.fillText(label, data.x + data.size + 7, data.y + size / 3);
      }
    };
  }

  function View(root) {
    this.root = root;
    this.canvas = root.querySelector("#graph-canvas");
    this.status = root.querySelector("#graph-status");
    this.mode = root.getAttribute("data-mode") || "overview";
    this.focus = root.getAttribute("data-focus") || "";
    this.depth = parseInt(root.getAttribute("data-depth"), 10) || 1;
    this.cap = parseInt(root.getAttribute("data-cap"), 10) || 200;
    this.csrf = root.getAttribute("data-csrf") || "";
    this.graph = null;
    this.renderer = null;
    this.worker = null;
    this.run = 0; // the newest layout run
    this.request = 0; // the newest data request
    this.hovered = null;
    this.dead = false;
  }

  // The legend of the mode shown (the drawing changes mode in place).
  View.prototype.showLegend = function () {
    var mode = this.mode;
    Array.prototype.forEach.call(this.root.querySelectorAll("[data-legend]"), function (el) {
      el.hidden = el.getAttribute("data-legend") !== mode;
    });
  };

  View.prototype.say = function (text) {
    if (this.status) this.status.textContent = text;
  };

  View.prototype.start = function () {
    var self = this;
    var root = this.root;
    self.say("Loading the drawing…");
    Promise.all([
      loadScript(root.getAttribute("data-graphology"), "graphology"),
      loadScript(root.getAttribute("data-sigma"), "Sigma")
    ]).then(function () {
      if (self.dead) return;
      self.setUp();
      history.replaceState({ ctxGraph: true, focus: self.focus }, "", location.href);
      return self.mode === "ego" ? self.loadEgo(self.focus, false) : self.loadOverview();
    }).catch(function (err) {
      self.say("The drawing is not available (" + err.message + "); the lists below hold the same graph.");
    });
  };

  View.prototype.setUp = function () {
    var self = this;
    var colors = (this.colors = palette(this.root));
    this.scheme = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
    this.onScheme = function () { self.recolor(); };
    if (this.scheme && this.scheme.addEventListener) this.scheme.addEventListener("change", this.onScheme);
    this.graph = new window.graphology.MultiDirectedGraph();
    // sigma needs a sized container. The hidden attribute, not a class: htmx puts an element's
    // old classes back for a moment while it settles a swap, which would hide it again.
    this.canvas.hidden = false;
    var Renderer = sigmaClass();
    try {
      this.renderer = new Renderer(this.graph, this.canvas, {
        labelColor: { color: colors.label },
        labelFont: colors.font,
        labelSize: 13,
        labelRenderedSizeThreshold: 6,
        defaultEdgeColor: colors.edge,
        defaultDrawNodeHover: hoverDrawer(this),
        zIndex: true,
        allowInvalidContainer: true,
        nodeReducer: function (node, data) { return self.reduceNode(node, data); },
        edgeReducer: function (edge, data) { return self.reduceEdge(edge, data); }
      });
    } catch (err) {
      this.canvas.hidden = true;
      throw new Error("this browser cannot draw it: " + err.message);
    }
    this.renderer.on("clickNode", function (event) { self.clicked(event.node); });
    this.renderer.on("enterNode", function (event) { self.hover(event.node); });
    this.renderer.on("leaveNode", function () { self.hover(null); });
    try {
      this.worker = new Worker(this.root.getAttribute("data-worker"));
      this.worker.onmessage = function (event) { self.placed(event.data); };
      this.worker.onerror = function () { self.worker = null; };
    } catch (err) {
      this.worker = null; // the first positions stay: still a readable drawing
    }
  };

  View.prototype.hover = function (node) {
    this.hovered = node;
    this.canvas.classList.toggle("pointing", !!node);
    if (this.renderer) this.renderer.refresh({ skipIndexation: true });
  };

  // Colours are applied here, from the theme's custom properties, not stored on the nodes: a
  // change of the system theme needs only a refresh (recolor).
  View.prototype.reduceNode = function (node, data) {
    var c = this.colors;
    var color = data.cluster ? c.cluster : data.depth === 0 ? c.focus : data.depth === 1 ? c.near : c.far;
    if (this.hovered && node !== this.hovered && !this.graph.areNeighbors(node, this.hovered)) {
      return Object.assign({}, data, { color: c.edge, label: "", zIndex: 0 });
    }
    return Object.assign({}, data, { color: color });
  };

  View.prototype.reduceEdge = function (edge, data) {
    var hidden = !!this.hovered && !this.graph.hasExtremity(edge, this.hovered);
    return Object.assign({}, data, { color: this.colors.edge, hidden: hidden });
  };

  View.prototype.recolor = function () {
    if (!this.renderer) return;
    this.colors = palette(this.root);
    this.renderer.setSetting("labelColor", { color: this.colors.label });
  };

  View.prototype.clicked = function (node) {
    if (this.mode === "overview") {
      var block = this.graph.getNodeAttribute(node, "block");
      if (block) this.refocus(block, { push: true, grow: false });
      return;
    }
    if (node !== this.focus) this.refocus(node, { push: true, grow: true });
  };

  // Show another focus; grow: keep what is shown (the server evicts past the cap).
  View.prototype.refocus = function (focus, opts) {
    var url = pageUrl(focus, this.depth, this.cap);
    if (opts.push) history.pushState({ ctxGraph: true, focus: focus }, "", url);
    var grow = opts.grow && this.mode === "ego" && !!focus;
    this.mode = focus ? "ego" : "overview";
    this.focus = focus;
    this.refreshText(url, !!opts.fromList);
    return focus ? this.loadEgo(focus, grow) : this.loadOverview();
  };

  View.prototype.loadEgo = function (focus, grow) {
    var self = this;
    var ticket = ++this.request;
    self.say("Loading the neighbourhood…");
    var answer;
    if (grow && this.graph.order) {
      answer = fetchJSON("/graph/data/ego", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": this.csrf },
        body: JSON.stringify({ focus: focus, depth: this.depth, cap: this.cap, keep: this.graph.nodes() })
      });
    } else {
      answer = fetchJSON("/graph/data/ego?focus=" + encodeURIComponent(focus) +
        "&depth=" + this.depth + "&cap=" + this.cap);
    }
    return answer.then(function (data) {
      if (self.dead || ticket !== self.request) return;
      if (!grow) self.graph.clear();
      self.showEgo(data);
    }).catch(function (err) {
      if (ticket === self.request) self.say("Could not load the neighbourhood: " + err.message + ".");
    });
  };

  View.prototype.showEgo = function (data) {
    var graph = this.graph;
    var wanted = {};
    data.nodes.forEach(function (n) { wanted[n.id] = n; });
    graph.filterNodes(function (key) { return !wanted[key]; }).forEach(function (key) {
      graph.dropNode(key); // evicted by the server, or no longer readable
    });
    graph.clearEdges();
    this.focus = data.focus;
    var placed = 0;
    data.nodes.forEach(function (n) {
      var attrs = {
        label: n.title,
        depth: n.depth,
        zIndex: n.depth === 0 ? 2 : 1
      };
      if (graph.hasNode(n.id)) graph.mergeNodeAttributes(n.id, attrs);
      else graph.addNode(n.id, Object.assign(attrs, { x: 0, y: 0, size: 4, fresh: true }));
    });
    data.edges.forEach(function (e) {
      var key = e.source + ">" + e.target + ":" + e.type;
      if (graph.hasEdge(key)) return;
      graph.addDirectedEdgeWithKey(key, e.source, e.target, {
        size: 1 + 3 * e.confidence,
        type: DIRECTED[e.type] ? "arrow" : "line",
        weight: e.confidence
      });
    });
    // new nodes start beside a neighbour already placed (or on a ring around the focus)
    graph.forEachNode(function (key, attrs) {
      graph.setNodeAttribute(key, "size", (attrs.depth === 0 ? 9 : 4) + 1.5 * Math.sqrt(graph.degree(key)));
      if (!attrs.fresh) return;
      var anchor = null;
      graph.forEachNeighbor(key, function (other, o) { if (!anchor && !o.fresh) anchor = o; });
      var angle = (placed++ * 2.399963) % (Math.PI * 2); // the golden angle spreads them
      var radius = anchor ? 1 : attrs.depth === 0 ? 0 : 10;
      graph.mergeNodeAttributes(key, {
        x: (anchor ? anchor.x : 0) + radius * Math.cos(angle),
        y: (anchor ? anchor.y : 0) + radius * Math.sin(angle),
        fresh: false
      });
    });
    var text = data.nodes.length + " block" + (data.nodes.length === 1 ? "" : "s") + ", " +
      data.edges.length + " link" + (data.edges.length === 1 ? "" : "s");
    if (data.evicted && data.evicted.length) {
      text += "; " + data.evicted.length + " farthest removed to stay within " + data.cap;
    } else if (data.truncated) {
      text += "; the nearest " + data.cap + " shown";
    }
    this.summary = text + ". Choose a block to focus on it.";
    this.layout();
  };

  View.prototype.loadOverview = function () {
    var self = this;
    var ticket = ++this.request;
    self.say("Loading the clusters…");
    return fetchJSON("/graph/data/overview").then(function (data) {
      if (self.dead || ticket !== self.request) return;
      self.showOverview(data);
    }).catch(function (err) {
      if (ticket === self.request) self.say("Could not load the clusters: " + err.message + ".");
    });
  };

  View.prototype.showOverview = function (data) {
    var graph = this.graph;
    graph.clear();
    var n = data.clusters.length;
    data.clusters.forEach(function (c, i) {
      var top = c.titles[0];
      var angle = (i / Math.max(n, 1)) * Math.PI * 2;
      graph.addNode("c" + c.id, {
        label: (top ? top.title : "Cluster " + c.id) + " (" + c.size + ")",
        block: top ? top.id : null,
        x: 10 * Math.cos(angle),
        y: 10 * Math.sin(angle),
        size: 4 + 3 * Math.sqrt(c.size),
        cluster: true
      });
    });
    data.edges.forEach(function (e) {
      graph.addEdge("c" + e.source, "c" + e.target, {
        size: Math.min(6, 1 + e.links), weight: e.weight
      });
    });
    this.summary = n
      ? n + " cluster" + (n === 1 ? "" : "s") + ", each named by its most linked title. Choose one to focus on that block."
      : "No clusters yet.";
    this.layout();
  };

  // Hand the graph to the worker; positions come back in rounds (placed).
  View.prototype.layout = function () {
    var graph = this.graph;
    this.showLegend();
    // every title on a small graph; on a big one sigma shows those of the bigger nodes
    if (this.renderer) this.renderer.setSetting("labelRenderedSizeThreshold", graph.order > 60 ? 6 : 0);
    var id = ++this.run;
    if (!this.worker || graph.order === 0) {
      this.say(this.summary);
      return;
    }
    this.say("Laying out " + graph.order + " nodes…");
    var nodes = graph.mapNodes(function (key, a) { return { key: key, x: a.x, y: a.y, size: a.size }; });
    var edges = graph.mapEdges(function (key, a, source, target) {
      return { source: source, target: target, weight: a.weight || 1 };
    });
    this.worker.postMessage({ id: id, nodes: nodes, edges: edges });
  };

  View.prototype.placed = function (msg) {
    if (!this.root.isConnected) this.destroy(); // the page went away without telling
    if (this.dead || msg.id !== this.run) return;
    var positions = msg.positions;
    this.graph.updateEachNodeAttributes(function (key, attrs) {
      var p = positions[key];
      if (p) { attrs.x = p.x; attrs.y = p.y; }
      return attrs;
    }, { attributes: ["x", "y"] });
    if (msg.done) {
      this.say(this.summary);
      if (this.renderer) this.renderer.getCamera().animatedReset({ duration: 300 });
    }
  };

  // The heading, the form and the textual lists of the new address, from the server. After a
  // choice in the lists (which this replaces), focus moves to the heading, as after htmx swaps.
  View.prototype.refreshText = function (url, moveFocus) {
    var self = this;
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) {
        if (!html || self.dead) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("graph-text");
        var here = document.getElementById("graph-text");
        if (fresh && here) {
          here.replaceWith(document.importNode(fresh, true));
          if (window.htmx) window.htmx.process(document.getElementById("graph-text"));
        }
        var title = doc.getElementById("graph-title");
        var heading = document.getElementById("graph-title");
        if (title && heading) {
          heading.textContent = title.textContent;
          if (moveFocus) {
            heading.setAttribute("tabindex", "-1");
            heading.focus();
          }
        }
        var label = doc.getElementById("graph-canvas");
        if (label) self.canvas.setAttribute("aria-label", label.getAttribute("aria-label") || "");
        var input = document.querySelector("#graph-form input[name=focus]");
        if (input) input.value = self.focus;
        var name = doc.querySelector("title");
        if (name) document.title = name.textContent;
      })
      .catch(function () { /* the drawing is still right; the lists catch up on reload */ });
  };

  View.prototype.destroy = function () {
    this.dead = true;
    if (this.scheme && this.scheme.removeEventListener) this.scheme.removeEventListener("change", this.onScheme);
    if (this.worker) this.worker.terminate();
    if (this.renderer) this.renderer.kill();
    this.worker = null;
    this.renderer = null;
  };

  function start() {
    var root = document.getElementById("graph-view");
    if (view && view.root !== root) {
      view.destroy();
      view = null;
    }
    if (!root || view) return;
    view = new View(root);
    view.start();
  }

  // Leaving the page through htmx: stop the worker and free the WebGL context.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (view && target && target.contains(view.root)) {
      view.destroy();
      view = null;
    }
  });

  // A page swapped in by htmx runs this file again; settling is a second chance (idempotent).
  document.addEventListener("htmx:afterSettle", start);

  // A title in the lists focuses in place (a new tab or window still follows the link).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-graph-focus]");
    if (!link || !view || view.dead || event.button !== 0) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    view.refocus(link.getAttribute("data-graph-focus"), {
      push: true,
      grow: !!link.closest("[data-graph-grow]"),
      fromList: true
    });
  });

  window.addEventListener("popstate", function (event) {
    var state = event.state;
    if (!state || !state.ctxGraph) return; // htmx's own entries are htmx's business
    if (view && !view.dead && document.getElementById("graph-view") === view.root) {
      view.refocus(state.focus || "", { push: false, grow: true });
    } else {
      location.reload(); // the address is a graph page this document no longer shows
    }
  });

  window.ctxGraph = { start: start };
  start();
})();
