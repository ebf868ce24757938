/* papertopics report: draws the page's figure and runs the document map.
 * Data comes from <script type="application/json" id="report-data"> (JSON.parse, never eval);
 * listing text is written to the page with textContent only. */
(function () {
  'use strict';

  var PLOT_CONFIG = {
    displaylogo: false,
    responsive: true,
    scrollZoom: false,
    modeBarButtonsToRemove: ['select2d', 'lasso2d', 'autoScale2d'],
    toImageButtonOptions: { format: 'png', scale: 2 }
  };

  function readData() {
    var element = document.getElementById('report-data');
    return element ? JSON.parse(element.textContent) : null;
  }

  function markReady(error) {
    if (error) {
      document.documentElement.setAttribute('data-error', String(error));
    }
    // Milliseconds from navigation start until the figures are drawn (the tests read it).
    document.documentElement.setAttribute('data-ready-ms', String(Math.round(performance.now())));
    document.documentElement.setAttribute('data-ready', '1');
  }

  function showError(container, message) {
    var box = document.createElement('p');
    box.className = 'callout';
    box.textContent = message;
    container.appendChild(box);
  }

  function webglAvailable() {
    try {
      var canvas = document.createElement('canvas');
      return !!(window.WebGLRenderingContext && (canvas.getContext('webgl') || canvas.getContext('experimental-webgl')));
    } catch (error) {
      return false;
    }
  }

  function withoutWebgl(figure) {
    figure.data.forEach(function (trace) { if (trace.type === 'scattergl') { trace.type = 'scatter'; } });
  }

  function plot(container, figure) {
    if (!window.Plotly) {
      var message = 'plotly.min.js did not load: keep it in the same folder as this page.';
      showError(container, message);
      return Promise.reject(new Error(message));
    }
    if (!webglAvailable()) { withoutWebgl(figure); }
    return Plotly.newPlot(container, figure.data, figure.layout, PLOT_CONFIG).then(function (gd) {
      // Plotly replaces a WebGL plot it cannot draw with a notice (that links to a web site):
      // draw the same points with SVG instead.
      if (container.querySelector('.no-webgl')) {
        console.warn('WebGL failed: drawing the map with SVG');
        withoutWebgl(figure);
        Plotly.purge(container);
        return Plotly.newPlot(container, figure.data, figure.layout, PLOT_CONFIG);
      }
      return gd;
    });
  }

  /* ---------- document map ---------- */

  function documentMap(container, data) {
    var docs = data.docs;
    var n = docs.doc_id.length;
    var traces = data.figure.data;
    var topicTraces = [];
    var matchTrace = -1;
    traces.forEach(function (trace, index) {
      if (trace.meta && trace.meta.role === 'matches') { matchTrace = index; } else { topicTraces.push(index); }
    });
    // Original coordinates per trace, to restore after filtering.
    var original = traces.map(function (trace) {
      return { x: Array.from(trace.x || []), y: Array.from(trace.y || []), rows: Array.from(trace.customdata || []),
               hover: Array.from(trace.hovertext || []), opacity: trace.marker ? trace.marker.opacity : 1 };
    });
    var rowX = new Array(n), rowY = new Array(n), rowHover = new Array(n);
    original.forEach(function (o, index) {
      if (index === matchTrace) { return; }
      o.rows.forEach(function (row, j) { rowX[row] = o.x[j]; rowY[row] = o.y[j]; rowHover[row] = o.hover[j]; });
    });
    // Searched text: title, abstract, id and the metadata columns (authors, ...).
    var extraColumns = Object.keys(docs.extra).map(function (column) { return docs.extra[column]; });
    var haystack = new Array(n);
    for (var i = 0; i < n; i++) {
      var parts = [docs.title[i], docs.text[i], docs.doc_id[i]];
      extraColumns.forEach(function (values) { parts.push(values[i]); });
      haystack[i] = parts.join('\n').toLowerCase();
    }

    var search = document.getElementById('search');
    var filter = document.getElementById('listing-filter');
    var reset = document.getElementById('reset');
    var status = document.getElementById('status');
    var state = { query: '', listing: '' };

    function inListing(row) {
      return state.listing === '' || docs.listings[row].indexOf(Number(state.listing)) !== -1;
    }

    function matches(row, terms) {
      for (var k = 0; k < terms.length; k++) {
        if (haystack[row].indexOf(terms[k]) === -1) { return false; }
      }
      return true;
    }

    // What the plot shows now, so apply() redraws only what changed.
    var drawn = { listing: '', searching: false, matches: 0 };

    function apply() {
      var terms = state.query.toLowerCase().split(/\s+/).filter(Boolean);
      var searching = terms.length > 0;
      var shown = 0;
      for (var r = 0; r < n; r++) { if (inListing(r)) { shown++; } }
      if (state.listing !== drawn.listing) {
        var xs = [], ys = [];
        topicTraces.forEach(function (index) {
          var o = original[index];
          var x = new Array(o.x.length), y = new Array(o.y.length);
          for (var j = 0; j < o.rows.length; j++) {
            var keep = inListing(o.rows[j]);
            x[j] = keep ? o.x[j] : null;
            y[j] = keep ? o.y[j] : null;
          }
          xs.push(x); ys.push(y);
        });
        Plotly.restyle(container, { x: xs, y: ys }, topicTraces);
        drawn.listing = state.listing;
      }
      if (searching !== drawn.searching) {
        var opacities = topicTraces.map(function (index) { return searching ? 0.22 : original[index].opacity; });
        Plotly.restyle(container, { 'marker.opacity': opacities }, topicTraces);
        drawn.searching = searching;
      }
      var found = [];
      if (searching) {
        for (var row = 0; row < n; row++) {
          if (inListing(row) && matches(row, terms)) { found.push(row); }
        }
      }
      if (matchTrace >= 0 && (found.length || drawn.matches)) {
        drawn.matches = found.length;
        Plotly.restyle(container, {
          x: [found.map(function (r) { return rowX[r]; })],
          y: [found.map(function (r) { return rowY[r]; })],
          customdata: [found],
          hovertext: [found.map(function (r) { return rowHover[r]; })]
        }, [matchTrace]);
      }
      var text = shown + ' of ' + n + ' documents shown';
      if (searching) { text += ' \u00b7 ' + found.length + (found.length === 1 ? ' match' : ' matches'); }
      status.textContent = text;
      container.setAttribute('data-matches', String(found.length));
      container.setAttribute('data-shown', String(shown));
      listMatches(searching ? found : null);
    }

    function listMatches(found) {
      var section = document.getElementById('matches');
      var list = document.getElementById('match-list');
      list.textContent = '';
      if (!found) { section.hidden = true; return; }
      section.hidden = false;
      document.getElementById('matches-heading').textContent =
        found.length ? (found.length > 100 ? 'First 100 of ' + found.length + ' matches' : found.length + ' matching documents')
                     : 'No document matches';
      found.slice(0, 100).forEach(function (row) {
        var item = document.createElement('li');
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = docs.headline[row];
        button.addEventListener('click', function () { showDocument(row); });
        item.appendChild(button);
        list.appendChild(item);
      });
    }

    function addMeta(list, name, value) {
      if (value === undefined || value === null || value === '') { return; }
      var dt = document.createElement('dt');
      dt.textContent = name;
      var dd = document.createElement('dd');
      if (name === 'url' && /^https?:\/\//i.test(String(value))) {
        var link = document.createElement('a');
        link.href = String(value);
        link.rel = 'noopener noreferrer';
        link.target = '_blank';
        link.textContent = String(value);
        dd.appendChild(link);
      } else {
        dd.textContent = String(value);
      }
      list.appendChild(dt);
      list.appendChild(dd);
    }

    function showDocument(row) {
      if (row === undefined || row === null || row < 0 || row >= n) { return; }
      var topic = String(docs.topic[row]);
      document.getElementById('doc-empty').hidden = true;
      document.getElementById('doc').hidden = false;
      document.getElementById('doc-swatch').style.background = data.docs.topic_colors[topic] || '#999';
      document.getElementById('doc-topic').textContent =
        (docs.topic[row] < 0 ? '' : 'Topic ' + topic + ': ') + (docs.topic_labels[topic] || '');
      document.getElementById('doc-title').textContent = docs.headline[row];
      var meta = document.getElementById('doc-meta');
      meta.textContent = '';
      addMeta(meta, 'listing', docs.listings[row].map(function (i) { return docs.listing_names[i]; }).join(', '));
      Object.keys(docs.extra).forEach(function (column) { addMeta(meta, column, docs.extra[column][row]); });
      addMeta(meta, 'doc id', docs.doc_id[row]);
      document.getElementById('doc-text').textContent = docs.text[row];
      container.setAttribute('data-selected', docs.doc_id[row]);
    }

    var timer = null;
    search.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.query = search.value; apply(); }, 150);
    });
    search.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { clearTimeout(timer); state.query = search.value; apply(); }
    });
    filter.addEventListener('change', function () { state.listing = filter.value; apply(); });
    reset.addEventListener('click', function () {
      search.value = ''; filter.value = '';
      state.query = ''; state.listing = '';
      Plotly.restyle(container, { visible: true }, topicTraces);
      apply();
    });
    container.on('plotly_click', function (event) {
      if (event && event.points && event.points.length) { showDocument(event.points[0].customdata); }
    });

    function fromHash() {
      var hash = decodeURIComponent(window.location.hash.replace(/^#/, ''));
      var match = /^doc=(.+)$/.exec(hash);
      if (match) {
        var row = docs.doc_id.indexOf(match[1]);
        if (row >= 0) { showDocument(row); }
        return;
      }
      match = /^topic=(-?\d+)$/.exec(hash);
      if (match) {
        var wanted = Number(match[1]);
        var visible = topicTraces.map(function (index) {
          var meta = traces[index].meta || {};
          return meta.topic === wanted ? true : 'legendonly';
        });
        Plotly.restyle(container, { visible: visible }, topicTraces);
      }
    }
    window.addEventListener('hashchange', fromHash);
    fromHash();
    apply();
  }

  /* ---------- start ---------- */

  // A blocked script, style or request is a bug of the report: make it loud (the tests fail on it).
  document.addEventListener('securitypolicyviolation', function (event) {
    console.error('Content-Security-Policy blocked ' + event.violatedDirective + ': ' + (event.blockedURI || 'inline'));
  });

  function start() {
    var data;
    try {
      data = readData();
    } catch (error) {
      markReady(error);
      throw error;
    }
    var container = document.getElementById('figure');
    if (!data || !data.figure || !container) { markReady(); return; }
    plot(container, data.figure).then(function () {
      if (document.body.getAttribute('data-page') === 'documents') { documentMap(container, data); }
      markReady();
    }).catch(function (error) {
      markReady(error);
      if (window.console) { console.error(error); }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
