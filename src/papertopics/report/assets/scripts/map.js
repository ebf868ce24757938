/* papertopics report, map: the document map page. Builds the state every feature of the map
 * shares (one object, `map`, handed to each feature's class: TopicFinder, MapLabels,
 * DocumentSearch, DocumentPanel) and wires the page's controls and the address to them. */
(function (PT) {
  'use strict';

  // Above this many documents the abstracts load on the first search or click, not in the background.
  const PRELOAD_MAX_DOCUMENTS = 20000;

  // Fills the figure's topic traces from the packed arrays; returns what the map script needs.
  PT.prepareDocuments = function (data) {
    const docs = data.docs;
    const n = docs.n;
    const xs = PT.packedArray(docs.x, Float32Array), ys = PT.packedArray(docs.y, Float32Array);
    const nearest = PT.packedArray(docs.nearest, Uint8Array);
    const rowsOf = {};
    for (let r = 0; r < n; r++) { (rowsOf[docs.topic[r]] = rowsOf[docs.topic[r]] || []).push(r); }
    data.figure.data.forEach(function (trace) {
      if (!trace.meta || trace.meta.role === 'matches') { return; }
      const rows = rowsOf[trace.meta.topic] || [];
      const x = new Float32Array(rows.length), y = new Float32Array(rows.length);
      for (let j = 0; j < rows.length; j++) { x[j] = xs[rows[j]]; y[j] = ys[rows[j]]; }
      trace.x = x; trace.y = y; trace.customdata = rows;
      if (nearest && trace.meta.topic >= 0) {
        let some = false;
        for (let k = 0; k < rows.length; k++) { if (nearest[rows[k]]) { some = true; break; } }
        if (some) {
          const size = trace.marker.size, opacity = trace.marker.opacity;
          trace.marker.size = rows.map(function (row) { return nearest[row] ? Math.max(2, size - 2) : size; });
          trace.marker.opacity = rows.map(function (row) { return nearest[row] ? opacity * 0.4 : opacity; });
        }
      }
    });
    return { xs: xs, ys: ys, nearest: nearest };
  };

  // The state the map's features share: the plot, its traces, the documents, the controls' state.
  function mapState(container, data, packed) {
    const docs = data.docs;
    const map = {
      container: container, gd: container, docs: docs, n: docs.n, packed: packed,
      traces: container.data, topicTraces: [], matchTrace: -1, traceOfTopic: {},
      rowOfId: {}, topicInfo: {}, spanX0: 1,
      state: { query: '', listing: '', topicQuery: '', focus: null },
      status: document.getElementById('status')
    };
    map.traces.forEach(function (trace, index) {
      if (trace.meta && trace.meta.role === 'matches') { map.matchTrace = index; } else {
        map.topicTraces.push(index);
        map.traceOfTopic[trace.meta.topic] = index;
      }
    });
    map.original = map.traces.map(function (trace) {
      return { x: trace.x, y: trace.y, rows: trace.customdata || [],
               opacity: trace.marker ? trace.marker.opacity : 1 };
    });
    docs.doc_id.forEach(function (id, row) { map.rowOfId[id] = row; });
    docs.topics.forEach(function (t) { map.topicInfo[t.topic] = t; });
    map.store = PT.documentStore(docs, function (message) { map.status.textContent = message; });
    return map;
  }

  function wireControls(map) {
    const state = map.state, gd = map.gd;
    const search = document.getElementById('search');
    const filter = document.getElementById('listing-filter');
    const topicSearch = document.getElementById('topic-search');
    let timer = null, topicTimer = null;
    search.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.query = search.value; map.search.apply(); }, 150);
    });
    search.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { clearTimeout(timer); state.query = search.value; map.search.apply(); }
    });
    topicSearch.addEventListener('input', function () {
      clearTimeout(topicTimer);
      topicTimer = setTimeout(function () {
        state.topicQuery = topicSearch.value.trim().toLowerCase();
        state.focus = null;
        map.topics.render();
        map.topics.styleTraces();
        map.labels.layout();
      }, 80);
    });
    filter.addEventListener('change', function () { state.listing = filter.value; map.search.apply(); });
    document.getElementById('reset').addEventListener('click', function () {
      search.value = ''; filter.value = ''; topicSearch.value = '';
      state.query = ''; state.listing = ''; state.topicQuery = ''; state.focus = null;
      map.fields.reset();
      Plotly.restyle(gd, { visible: true }, map.topicTraces);
      Plotly.relayout(gd, { 'xaxis.autorange': true, 'yaxis.autorange': true });
      map.topics.render();
      map.search.apply();
    });
  }

  function wirePlot(map) {
    const gd = map.gd;
    gd.on('plotly_hover', map.panel.hover);
    gd.on('plotly_unhover', map.panel.unhover);
    gd.on('plotly_click', function (event) {
      if (event && event.points && event.points.length) { map.panel.show(event.points[0].customdata); }
    });
    gd.on('plotly_relayout', map.labels.schedule);
    gd.on('plotly_relayouting', map.labels.schedule);
    gd.on('plotly_restyle', map.labels.schedule);
    window.addEventListener('resize', map.labels.schedule);
  }

  // #doc=<id> opens a document in the panel; #topic=<n> shows that topic alone.
  function fromHash(map) {
    const hash = decodeURIComponent(window.location.hash.replace(/^#/, ''));
    let match = /^doc=(.+)$/.exec(hash);
    if (match) {
      const row = map.rowOfId[match[1]];
      return row === undefined ? Promise.resolve() : map.panel.show(row);
    }
    match = /^topic=(-?\d+)$/.exec(hash);
    if (match) {
      const wanted = Number(match[1]);
      const visible = map.topicTraces.map(function (index) {
        const meta = map.traces[index].meta || {};
        return meta.topic === wanted ? true : 'legendonly';
      });
      Plotly.restyle(map.gd, { visible: visible }, map.topicTraces);
    }
    return Promise.resolve();
  }

  PT.documentMap = function (container, data, packed) {
    const map = mapState(container, data, packed);
    map.topics = new PT.TopicFinder(map);
    map.labels = new PT.MapLabels(map);
    map.search = new PT.DocumentSearch(map);
    map.panel = new PT.DocumentPanel(map);
    map.fields = new PT.MapFields(map);
    wirePlot(map);
    wireControls(map);
    window.addEventListener('hashchange', function () { fromHash(map); });
    const layout0 = map.gd._fullLayout;
    map.spanX0 = Math.abs(layout0.xaxis.range[1] - layout0.xaxis.range[0]) || 1;
    map.topics.build();
    map.fields.build();
    map.search.apply();
    map.labels.layout();
    if (map.n <= PRELOAD_MAX_DOCUMENTS) {
      // Small enough: read every abstract in the background, so a search answers at once.
      window.setTimeout(function () { map.store.loadAll().catch(function () {}); }, 50);
    }
    return fromHash(map);
  };
}(window.papertopicsReport = window.papertopicsReport || {}));
