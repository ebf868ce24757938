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

  // The document map zooms with the wheel, like a map.
  var MAP_CONFIG = Object.assign({}, PLOT_CONFIG, { scrollZoom: true });

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

  function plot(container, figure, config) {
    if (!window.Plotly) {
      var message = 'plotly.min.js did not load: keep it in the same folder as this page.';
      showError(container, message);
      return Promise.reject(new Error(message));
    }
    if (!webglAvailable()) { withoutWebgl(figure); }
    return Plotly.newPlot(container, figure.data, figure.layout, config).then(function (gd) {
      // Plotly replaces a WebGL plot it cannot draw with a notice (that links to a web site):
      // draw the same points with SVG instead.
      if (container.querySelector('.no-webgl')) {
        console.warn('WebGL failed: drawing the map with SVG');
        withoutWebgl(figure);
        Plotly.purge(container);
        return Plotly.newPlot(container, figure.data, figure.layout, config);
      }
      return gd;
    });
  }

  /* ---------- document map ---------- */

  // Zoomed in less than this (relative to the whole map), the names shown are the regions'.
  var REGION_ZOOM = 1.9;
  // Above this many documents the abstracts load on the first search or click, not in the background.
  var PRELOAD_MAX_DOCUMENTS = 20000;

  function decodeBase64(text) {
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return bytes;
  }

  function packedArray(text, Type) {
    return text ? new Type(decodeBase64(text).buffer) : null;
  }

  // windows-1252 characters that do not stand for their own code (the bytes 0x80-0x9f).
  var CP1252 = { 0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
    0x02c6: 0x88, 0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92,
    0x201c: 0x93, 0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a,
    0x203a: 0x9b, 0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f };

  // A data file's string (its bytes read as windows-1252, one character each) back to the bytes.
  function latin1Bytes(text) {
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      bytes[i] = code < 256 ? code : CP1252[code];
    }
    return bytes;
  }

  // gzip (data/headlines.js, which the map waits for): the browser inflates it off the main thread.
  function gunzipText(bytes) {
    if (!window.DecompressionStream) {
      return Promise.reject(new Error('this browser cannot read the report data (no DecompressionStream): use a current Chrome, Firefox, Edge or Safari'));
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text();
  }

  // Brotli (the abstracts' files, see packed_call) to text: the browser's own decoder where it has
  // one, else the bundled brotli-decode.min.js (~30-80 MB/s), loaded with the first such file so
  // that its parsing and dictionary stay off the map's first render.
  var UTF8 = new TextDecoder('utf-8');
  var decoder = null;
  function brotliDecoder() {
    if (!decoder) {
      decoder = new Promise(function (resolve, reject) {
        if (window.papertopicsBrotli) { resolve(window.papertopicsBrotli); return; }
        var script = document.createElement('script');
        script.src = 'brotli-decode.min.js';
        script.onload = function () { resolve(window.papertopicsBrotli); };
        script.onerror = function () {
          reject(new Error('could not load brotli-decode.min.js: keep it beside this page'));
        };
        document.head.appendChild(script);
      });
    }
    return decoder;
  }
  function unbrotli(bytes) {
    var stream = null;
    try { stream = new DecompressionStream('brotli'); } catch (error) { stream = null; }
    if (stream) {
      return new Response(new Blob([bytes]).stream().pipeThrough(stream)).text();
    }
    return brotliDecoder().then(function (brotli) { return UTF8.decode(brotli.decompress(bytes)); });
  }

  // A data file (see chunk_script): a <script> whose one call hands over compressed bytes as a
  // string; `take` returns what the call handed over. Resolves to the parsed JSON. A <script>
  // works on file://, where fetch does not. gzip is told by its magic bytes, else Brotli.
  function loadPacked(src, take) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = src;
      script.charset = 'windows-1252';  // one character per byte: see chunk_script
      script.onload = function () {
        script.remove();
        var payload = take();
        if (!payload) { reject(new Error(script.src + ' holds no data')); return; }
        var bytes = latin1Bytes(payload);
        var gzipped = bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b;
        (gzipped ? gunzipText(bytes) : unbrotli(bytes)).then(function (json) { resolve(JSON.parse(json)); }).catch(reject);
      };
      script.onerror = function () {
        reject(new Error('could not load ' + script.src + ': keep the data folder beside this page'));
      };
      document.head.appendChild(script);
    });
  }

  function darker(hex, factor) {
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || '');
    if (!m) { return '#1d2430'; }
    return 'rgb(' + [1, 2, 3].map(function (k) { return Math.round(parseInt(m[k], 16) * factor); }).join(',') + ')';
  }

  function shorten(text, max) {
    text = String(text || '');
    if (text.length <= max) { return text; }
    var cut = text.slice(0, max - 1);
    var space = cut.lastIndexOf(' ');
    if (space > max * 0.6) { cut = cut.slice(0, space); }
    return cut.replace(/[\s,;:]+$/, '') + '\u2026';
  }

  // A name as one line, or two balanced lines when long: a six-word name (the longest the names
  // stage gives, "large vision-language models (LVLMs) & hallucinations") fits whole.
  function nameLines(text) {
    text = shorten(text, 64);
    if (text.length <= 20) { return [text]; }
    var middle = text.length / 2, best = -1;
    for (var i = 0; i < text.length; i++) {
      if (text[i] === ' ' && (best < 0 || Math.abs(i - middle) < Math.abs(best - middle))) { best = i; }
    }
    return best < 0 ? [text] : [text.slice(0, best), text.slice(best + 1)];
  }

  // Fills the figure's topic traces from the packed arrays; returns what the map script needs.
  function prepareDocuments(data) {
    var docs = data.docs;
    var n = docs.n;
    var xs = packedArray(docs.x, Float32Array), ys = packedArray(docs.y, Float32Array);
    var nearest = packedArray(docs.nearest, Uint8Array);
    var rowsOf = {};
    for (var r = 0; r < n; r++) { (rowsOf[docs.topic[r]] = rowsOf[docs.topic[r]] || []).push(r); }
    data.figure.data.forEach(function (trace) {
      if (!trace.meta || trace.meta.role === 'matches') { return; }
      var rows = rowsOf[trace.meta.topic] || [];
      var x = new Float32Array(rows.length), y = new Float32Array(rows.length);
      for (var j = 0; j < rows.length; j++) { x[j] = xs[rows[j]]; y[j] = ys[rows[j]]; }
      trace.x = x; trace.y = y; trace.customdata = rows;
      if (nearest && trace.meta.topic >= 0) {
        var some = false;
        for (var k = 0; k < rows.length; k++) { if (nearest[rows[k]]) { some = true; break; } }
        if (some) {
          var size = trace.marker.size, opacity = trace.marker.opacity;
          trace.marker.size = rows.map(function (row) { return nearest[row] ? Math.max(2, size - 2) : size; });
          trace.marker.opacity = rows.map(function (row) { return nearest[row] ? opacity * 0.4 : opacity; });
        }
      }
    });
    return { xs: xs, ys: ys, nearest: nearest };
  }

  function documentMap(container, data, packed) {
    var docs = data.docs;
    var n = docs.n;
    var gd = container;
    var traces = gd.data;
    var topicTraces = [];
    var matchTrace = -1;
    var traceOfTopic = {};
    traces.forEach(function (trace, index) {
      if (trace.meta && trace.meta.role === 'matches') { matchTrace = index; } else {
        topicTraces.push(index);
        traceOfTopic[trace.meta.topic] = index;
      }
    });
    var original = traces.map(function (trace) {
      return { x: trace.x, y: trace.y, rows: trace.customdata || [],
               opacity: trace.marker ? trace.marker.opacity : 1 };
    });
    function chunkOf(row) { return Math.floor(row / docs.chunk_documents); }
    var rowOfId = {};
    docs.doc_id.forEach(function (id, row) { rowOfId[id] = row; });
    var topicInfo = {};
    docs.topics.forEach(function (t) { topicInfo[t.topic] = t; });

    /* --- the abstracts, metadata and similar papers: data/docs-<k>.js, loaded on demand --- */
    var titles = new Array(n), texts = new Array(n), similar = new Array(n), haystack = new Array(n);
    var extra = {};
    var chunks = {};
    var loadedChunks = 0;
    window.papertopicsChunk = function (index, payload) {
      if (chunks[index]) { chunks[index].payload = payload; }
    };
    function install(chunk) {
      chunk.text.forEach(function (text, j) {
        var row = chunk.first + j;
        // null: the title is the headline (sent once, in data/headlines.js)
        titles[row] = chunk.title[j] === null ? docs.headline[row] : chunk.title[j];
        texts[row] = chunk.text[j];
        similar[row] = chunk.similar[j] || [];
        var parts = [titles[row], chunk.text[j], docs.doc_id[row]];
        Object.keys(chunk.extra).forEach(function (column) {
          (extra[column] = extra[column] || new Array(n))[row] = chunk.extra[column][j];
          parts.push(chunk.extra[column][j]);
        });
        haystack[row] = parts.join('\n').toLowerCase();
      });
      loadedChunks++;
    }
    function loadChunk(index) {
      if (chunks[index]) { return chunks[index].promise; }
      var entry = chunks[index] = {};
      entry.promise = loadPacked(docs.chunk_folder + '/docs-' + index + '.js', function () {
        var payload = entry.payload;
        entry.payload = null;
        return payload;
      }).then(install);
      entry.promise.catch(function (error) {
        loadError = String(error.message || error);
        status.textContent = loadError;
      });
      return entry.promise;
    }
    var everything = null;
    var loadError = '';
    function loadAll() {
      if (!everything) {
        var all = [];
        for (var k = 0; k < docs.n_chunks; k++) { all.push(loadChunk(k)); }
        everything = Promise.all(all);
      }
      return everything;
    }

    var search = document.getElementById('search');
    var filter = document.getElementById('listing-filter');
    var reset = document.getElementById('reset');
    var status = document.getElementById('status');
    var topicSearch = document.getElementById('topic-search');
    var state = { query: '', listing: '', topicQuery: '', focus: null };

    function inListing(row) {
      return state.listing === '' || docs.listings[row].indexOf(Number(state.listing)) !== -1;
    }

    // Until its data file is read, a document is searched by its headline (title or first
    // words) and id, so a search answers at once on a big listing and refines as files arrive.
    var headHay = new Array(n);
    function matches(row, terms) {
      var hay = haystack[row];
      if (hay === undefined) {
        hay = headHay[row] || (headHay[row] = (docs.headline[row] + '\n' + docs.doc_id[row]).toLowerCase());
      }
      for (var k = 0; k < terms.length; k++) {
        if (hay.indexOf(terms[k]) === -1) { return false; }
      }
      return true;
    }

    /* --- topic finder (the legend, searchable) --- */
    var topicItems = [];
    function topicMatches(t, query) {
      return !query || t.label.toLowerCase().indexOf(query) !== -1 || String(t.topic) === query;
    }
    function buildTopicList() {
      var list = document.getElementById('topic-list');
      var ordered = docs.topics.slice().sort(function (a, b) {
        return (a.topic < 0) - (b.topic < 0) || b.size - a.size || a.topic - b.topic;
      });
      ordered.forEach(function (t) {
        var item = document.createElement('li');
        item.setAttribute('data-topic', String(t.topic));
        var button = document.createElement('button');
        button.type = 'button';
        var swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = t.color;
        var name = document.createElement('span');
        name.className = 'name';
        var count = document.createElement('span');
        count.className = 'count';
        count.textContent = String(t.size);
        button.appendChild(swatch); button.appendChild(name); button.appendChild(count);
        button.addEventListener('click', function () { focusTopic(t.topic); });
        item.appendChild(button);
        list.appendChild(item);
        topicItems.push({ topic: t, item: item, name: name });
      });
      renderTopicList();
    }
    function renderTopicList() {
      var query = state.topicQuery;
      var shown = 0;
      topicItems.forEach(function (entry) {
        var t = entry.topic, label = (t.topic < 0 ? '' : t.topic + ' \u00b7 ') + t.label;
        var hit = topicMatches(t, query);
        entry.item.hidden = !hit;
        entry.item.classList.toggle('hit', !!query && hit);
        entry.item.classList.toggle('focused', state.focus === t.topic);
        entry.name.textContent = '';
        var at = query ? label.toLowerCase().indexOf(query) : -1;
        if (at >= 0) {
          entry.name.appendChild(document.createTextNode(label.slice(0, at)));
          var mark = document.createElement('mark');
          mark.textContent = label.slice(at, at + query.length);
          entry.name.appendChild(mark);
          entry.name.appendChild(document.createTextNode(label.slice(at + query.length)));
        } else {
          entry.name.textContent = label;
        }
        if (hit) { shown++; }
      });
      document.getElementById('topic-status').textContent = query
        ? shown + (shown === 1 ? ' topic matches' : ' topics match') + ' \u201c' + query + '\u201d'
        : (topicItems.length - (topicInfo[-1] ? 1 : 0)) + ' topics \u00b7 click one to zoom to it';
      container.setAttribute('data-topic-matches', query ? String(shown) : '');
    }
    function highlighted() {
      if (state.focus !== null) { var one = {}; one[state.focus] = true; return one; }
      if (!state.topicQuery) { return null; }
      var set = {};
      docs.topics.forEach(function (t) { if (topicMatches(t, state.topicQuery)) { set[t.topic] = true; } });
      return set;
    }
    function focusTopic(topic) {
      state.focus = state.focus === topic ? null : topic;
      renderTopicList();
      styleTraces();
      if (state.focus === null) { layoutLabels(); return; }
      var o = original[traceOfTopic[topic]];
      if (!o || !o.x.length) { return; }
      var xs = Array.from(o.x).sort(function (a, b) { return a - b; });
      var ys = Array.from(o.y).sort(function (a, b) { return a - b; });
      var lo = Math.floor(xs.length * 0.02), hi = Math.max(lo, Math.ceil(xs.length * 0.98) - 1);
      var padX = Math.max((xs[hi] - xs[lo]) * 0.25, spanX0 * 0.03), padY = Math.max((ys[hi] - ys[lo]) * 0.25, spanX0 * 0.03);
      Plotly.relayout(gd, { 'xaxis.range': [xs[lo] - padX, xs[hi] + padX], 'yaxis.range': [ys[lo] - padY, ys[hi] + padY] });
    }

    /* --- trace styling: dimmed while searching, others pale while topics are highlighted --- */
    var styled = '';
    function styleTraces() {
      var searching = state.query.trim() !== '';
      var set = highlighted();
      var key = searching + '|' + (set ? Object.keys(set).sort().join(',') : '');
      if (key === styled) { return; }
      styled = key;
      var opacities = topicTraces.map(function (index) {
        var topic = traces[index].meta.topic;
        if (searching) { return 0.22; }
        if (set && !set[topic]) { return 0.07; }
        return original[index].opacity;
      });
      Plotly.restyle(gd, { 'marker.opacity': opacities }, topicTraces);
    }

    /* --- names on the map --- */
    var labelLayer = document.getElementById('map-labels');
    var measure = document.createElement('canvas').getContext('2d');
    var fontFamily = window.getComputedStyle(labelLayer).fontFamily || 'sans-serif';
    var spanX0 = 1;
    var maxTopicSize = 1, maxRegionSize = 1;
    docs.topics.forEach(function (t) { if (t.topic >= 0) { maxTopicSize = Math.max(maxTopicSize, t.size); } });
    docs.regions.forEach(function (r) { maxRegionSize = Math.max(maxRegionSize, r.size); });
    var namedTopics = docs.topics.filter(function (t) { return t.topic >= 0 && t.x !== null; });
    var useRegions = docs.regions.length > 0 && docs.regions.length < namedTopics.length;

    function visibleTopic(topic) {
      var index = traceOfTopic[topic];
      return index !== undefined && traces[index].visible !== 'legendonly' && traces[index].visible !== false;
    }

    function layoutLabels() {
      var layout = gd._fullLayout;
      if (!layout || !layout.xaxis) { return; }
      var xa = layout.xaxis, ya = layout.yaxis, size = layout._size;
      var zoom = spanX0 / Math.abs(xa.range[1] - xa.range[0]);
      var set = highlighted();
      // Zoomed out: the regions (those with a topic shown); a topic searched for or clicked is named itself.
      var regionLevel = useRegions && zoom < REGION_ZOOM && !set;
      var items;
      if (regionLevel) {
        var shownRegions = {};
        namedTopics.forEach(function (t) { if (visibleTopic(t.topic)) { shownRegions[t.region] = true; } });
        items = docs.regions.filter(function (r) { return shownRegions[r.region]; }).map(function (r) {
          return { kind: 'region', id: r.region, label: r.label, x: r.x, y: r.y, weight: Math.sqrt(r.size / maxRegionSize),
                   size: r.size, color: '#2b3442', priority: 0 };
        });
      } else {
        items = namedTopics.filter(function (t) { return visibleTopic(t.topic); }).map(function (t) {
          return { kind: 'topic', id: t.topic, label: t.label, x: t.x, y: t.y, weight: Math.sqrt(t.size / maxTopicSize),
                   size: t.size, color: darker(t.color, 0.55), priority: set && set[t.topic] ? 1 : 0 };
        });
      }
      items.sort(function (a, b) { return b.priority - a.priority || b.size - a.size || a.id - b.id; });
      var placed = [];
      var pad = 3;
      var fragment = document.createDocumentFragment();
      items.forEach(function (item) {
        var px = xa.l2p(item.x), py = ya.l2p(item.y);
        if (!(px >= 0 && px <= size.w && py >= 0 && py <= size.h)) { return; }
        var fontSize = Math.round(item.kind === 'region' ? 13 + 7 * item.weight : 11 + 5 * item.weight);
        var weight = item.kind === 'region' ? 750 : 600;
        var lines = nameLines(item.label);
        measure.font = weight + ' ' + fontSize + 'px ' + fontFamily;
        var width = 0;
        lines.forEach(function (line) { width = Math.max(width, measure.measureText(line).width); });
        width = Math.ceil(width) + 2;
        var height = Math.ceil(lines.length * fontSize * 1.15);
        var offsets = [[0, 0], [0, -0.9 * height], [0, 0.9 * height], [0.6 * width, 0], [-0.6 * width, 0]];
        for (var k = 0; k < offsets.length; k++) {
          var box = { x0: px + offsets[k][0] - width / 2 - pad, y0: py + offsets[k][1] - height / 2 - pad };
          box.x1 = box.x0 + width + 2 * pad; box.y1 = box.y0 + height + 2 * pad;
          if (box.x0 < 0 || box.y0 < 0 || box.x1 > size.w || box.y1 > size.h) { continue; }
          var free = true;
          for (var p = 0; p < placed.length; p++) {
            var o = placed[p];
            if (box.x0 < o.x1 && o.x0 < box.x1 && box.y0 < o.y1 && o.y0 < box.y1) { free = false; break; }
          }
          if (!free) { continue; }
          placed.push(box);
          var span = document.createElement('span');
          span.className = 'map-label ' + item.kind + (set && !item.priority && item.kind === 'topic' ? ' dim' : '');
          span.setAttribute('data-' + item.kind, String(item.id));
          span.textContent = lines.join('\n');
          span.style.left = (size.l + box.x0 + pad) + 'px';
          span.style.top = (size.t + box.y0 + pad) + 'px';
          span.style.width = width + 'px';
          span.style.fontSize = fontSize + 'px';
          span.style.color = item.color;
          fragment.appendChild(span);
          break;
        }
      });
      labelLayer.textContent = '';
      labelLayer.appendChild(fragment);
      container.setAttribute('data-label-level', regionLevel ? 'regions' : 'topics');
      container.setAttribute('data-labels', String(placed.length));
    }
    var labelFrame = 0;
    function scheduleLabels() {
      if (labelFrame) { return; }
      labelFrame = window.requestAnimationFrame(function () { labelFrame = 0; layoutLabels(); });
    }

    /* --- tooltip: the page's own, text only --- */
    var tooltip = document.getElementById('map-tooltip');
    function topicName(topic) {
      return (topic < 0 ? '' : 'Topic ' + topic + ': ') + (docs.topic_labels[String(topic)] || '');
    }
    function listingNames(row) {
      return docs.listings[row].map(function (i) { return docs.listing_names[i]; }).join(', ');
    }
    gd.on('plotly_hover', function (event) {
      var point = event && event.points && event.points[0];
      if (!point) { return; }
      var row = point.customdata;
      tooltip.textContent = '';
      var title = document.createElement('span');
      title.className = 'tip-title';
      title.textContent = shorten(docs.headline[row], docs.hover_chars || 150);
      tooltip.appendChild(title);
      [['listing', listingNames(row)], ['topic', topicName(docs.topic[row])]].forEach(function (pair) {
        var line = document.createElement('span');
        line.className = 'tip-meta';
        line.textContent = pair[0] + ': ' + pair[1];
        tooltip.appendChild(line);
      });
      if (packed.nearest && packed.nearest[row]) {
        var note = document.createElement('span');
        note.className = 'tip-meta';
        note.textContent = 'assigned to its nearest topic';
        tooltip.appendChild(note);
      }
      var layout = gd._fullLayout;
      var px = layout._size.l + point.xaxis.l2p(point.x), py = layout._size.t + point.yaxis.l2p(point.y);
      tooltip.hidden = false;
      var left = px + 14, top = py + 14;
      if (left + tooltip.offsetWidth > gd.clientWidth) { left = Math.max(0, px - 14 - tooltip.offsetWidth); }
      if (top + tooltip.offsetHeight > gd.clientHeight) { top = Math.max(0, py - 14 - tooltip.offsetHeight); }
      tooltip.style.left = left + 'px';
      tooltip.style.top = top + 'px';
    });
    gd.on('plotly_unhover', function () { tooltip.hidden = true; });

    /* --- search and listing filter --- */
    var drawn = { listing: '', matches: 0 };
    var reading = false;

    // Reads every data file for a search, redrawing the matches about twice a second meanwhile.
    function readForSearch() {
      if (reading) { return; }
      reading = true;
      var last = performance.now();
      for (var k = 0; k < docs.n_chunks; k++) {
        loadChunk(k).then(function () {
          if (performance.now() - last > 500 && loadedChunks < docs.n_chunks) {
            last = performance.now();
            if (state.query.trim()) { apply(); }
          }
        }, function () {});
      }
      loadAll().then(function () { reading = false; if (state.query.trim()) { apply(); } }, function () { reading = false; });
    }

    function apply() {
      var terms = state.query.toLowerCase().split(/\s+/).filter(Boolean);
      var searching = terms.length > 0;
      var partial = searching && loadedChunks < docs.n_chunks;
      if (partial) { readForSearch(); }
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
        Plotly.restyle(gd, { x: xs, y: ys }, topicTraces);
        drawn.listing = state.listing;
      }
      styleTraces();
      var found = [];
      if (searching) {
        for (var row = 0; row < n; row++) {
          if (inListing(row) && matches(row, terms)) { found.push(row); }
        }
      }
      if (matchTrace >= 0 && (found.length || drawn.matches)) {
        drawn.matches = found.length;
        Plotly.restyle(gd, {
          x: [found.map(function (row) { return packed.xs[row]; })],
          y: [found.map(function (row) { return packed.ys[row]; })],
          customdata: [found]
        }, [matchTrace]);
      }
      var text = shown + ' of ' + n + ' documents shown';
      if (searching) { text += ' \u00b7 ' + found.length + (found.length === 1 ? ' match' : ' matches'); }
      if (partial && loadError) {
        text += ' in the titles \u00b7 ' + loadError;
      } else if (partial) {
        text += ' so far (titles; reading the abstracts: ' + loadedChunks + ' of ' + docs.n_chunks + ' files)\u2026';
      }
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

    /* --- the side panel: one document, then its similar papers --- */
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

    function showSimilar(row) {
      var section = document.getElementById('similar');
      var list = document.getElementById('similar-list');
      list.textContent = '';
      var entries = similar[row] || [];
      section.hidden = !docs.has_neighbours || !entries.length;
      entries.forEach(function (entry) {
        var other = entry[0];
        var item = document.createElement('li');
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = docs.headline[other];
        button.addEventListener('click', function () { showDocument(other); });
        var topic = document.createElement('span');
        topic.className = 'similar-topic';
        var swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = docs.topic_colors[String(docs.topic[other])] || '#999';
        topic.appendChild(swatch);
        topic.appendChild(document.createTextNode(topicName(docs.topic[other]) + ' \u00b7 similarity ' + Number(entry[1]).toFixed(2)));
        item.appendChild(button);
        item.appendChild(topic);
        list.appendChild(item);
      });
    }

    var selecting = 0;
    function showDocument(row) {
      if (row === undefined || row === null || row < 0 || row >= n) { return Promise.resolve(); }
      var ticket = ++selecting;
      var topic = String(docs.topic[row]);
      document.getElementById('doc-empty').hidden = true;
      document.getElementById('doc').hidden = false;
      document.getElementById('doc-swatch').style.background = docs.topic_colors[topic] || '#999';
      document.getElementById('doc-topic').textContent = topicName(docs.topic[row]);
      document.getElementById('doc-title').textContent = docs.headline[row];
      document.getElementById('doc-text').textContent = texts[row] === undefined ? 'loading\u2026' : texts[row];
      return loadChunk(chunkOf(row)).then(function () {
        if (ticket !== selecting) { return; }
        var meta = document.getElementById('doc-meta');
        meta.textContent = '';
        addMeta(meta, 'listing', listingNames(row));
        Object.keys(extra).forEach(function (column) { addMeta(meta, column, extra[column][row]); });
        addMeta(meta, 'doc id', docs.doc_id[row]);
        document.getElementById('doc-text').textContent = texts[row];
        showSimilar(row);
        container.setAttribute('data-selected', docs.doc_id[row]);
      });
    }

    /* --- wiring --- */
    var timer = null;
    search.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.query = search.value; apply(); }, 150);
    });
    search.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { clearTimeout(timer); state.query = search.value; apply(); }
    });
    var topicTimer = null;
    topicSearch.addEventListener('input', function () {
      clearTimeout(topicTimer);
      topicTimer = setTimeout(function () {
        state.topicQuery = topicSearch.value.trim().toLowerCase();
        state.focus = null;
        renderTopicList();
        styleTraces();
        layoutLabels();
      }, 80);
    });
    filter.addEventListener('change', function () { state.listing = filter.value; apply(); });
    reset.addEventListener('click', function () {
      search.value = ''; filter.value = ''; topicSearch.value = '';
      state.query = ''; state.listing = ''; state.topicQuery = ''; state.focus = null;
      Plotly.restyle(gd, { visible: true }, topicTraces);
      Plotly.relayout(gd, { 'xaxis.autorange': true, 'yaxis.autorange': true });
      renderTopicList();
      apply();
    });
    gd.on('plotly_click', function (event) {
      if (event && event.points && event.points.length) { showDocument(event.points[0].customdata); }
    });
    gd.on('plotly_relayout', scheduleLabels);
    gd.on('plotly_relayouting', scheduleLabels);
    gd.on('plotly_restyle', scheduleLabels);
    window.addEventListener('resize', scheduleLabels);

    function fromHash() {
      var hash = decodeURIComponent(window.location.hash.replace(/^#/, ''));
      var match = /^doc=(.+)$/.exec(hash);
      if (match) {
        var row = rowOfId[match[1]];
        return row === undefined ? Promise.resolve() : showDocument(row);
      }
      match = /^topic=(-?\d+)$/.exec(hash);
      if (match) {
        var wanted = Number(match[1]);
        var visible = topicTraces.map(function (index) {
          var meta = traces[index].meta || {};
          return meta.topic === wanted ? true : 'legendonly';
        });
        Plotly.restyle(gd, { visible: visible }, topicTraces);
      }
      return Promise.resolve();
    }
    window.addEventListener('hashchange', fromHash);
    var layout0 = gd._fullLayout;
    spanX0 = Math.abs(layout0.xaxis.range[1] - layout0.xaxis.range[0]) || 1;
    buildTopicList();
    apply();
    layoutLabels();
    if (n <= PRELOAD_MAX_DOCUMENTS) {
      // Small enough: read every abstract in the background, so a search answers at once.
      window.setTimeout(function () { loadAll().catch(function () {}); }, 50);
    }
    return fromHash();
  }

  // data/headlines.js: papertopicsHeadlines("<gzip bytes>") with every document's headline and id.
  function loadHeadlines(src) {
    var payload = null;
    window.papertopicsHeadlines = function (bytes) { payload = bytes; };
    return loadPacked(src, function () { return payload; });
  }

  /* ---------- overview: a topic's papers as a CSV download ---------- */

  // One CSV cell, always quoted. A cell that a spreadsheet would run as a formula (=, +, -, @,
  // TAB or CR first) gets a leading apostrophe, as OWASP advises against CSV injection.
  function csvCell(value) {
    var text = value === null || value === undefined ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text)) { text = "'" + text; }
    return '"' + text.replace(/"/g, '""') + '"';
  }

  // The document map's data files (headlines.js, docs-<k>.js), each loaded once, by <script>
  // (works on file://): resolves to {headline, doc_id} and the list of chunks.
  function documentData(info) {
    if (!info.loaded) {
      var payloads = {};
      window.papertopicsChunk = function (index, payload) { payloads[index] = payload; };
      var chunks = [];
      for (var k = 0; k < info.n_chunks; k++) {
        chunks.push(loadPacked(info.chunk_folder + '/docs-' + k + '.js', (function (index) {
          return function () { var payload = payloads[index]; delete payloads[index]; return payload; };
        }(k))));
      }
      info.loaded = Promise.all([loadHeadlines(info.headline_file), Promise.all(chunks)]);
    }
    return info.loaded;
  }

  // The CSV text of one topic's papers: topic, name, doc_id, title, the listing's own columns, abstract.
  function topicCsv(info, topic) {
    var Type = info.topic_bytes === 2 ? Int16Array : Int32Array;
    var topics = packedArray(info.topic, Type);
    return documentData(info).then(function (loaded) {
      var headlines = loaded[0], chunks = loaded[1];
      var columns = [];
      chunks.forEach(function (chunk) {
        Object.keys(chunk.extra).forEach(function (c) { if (columns.indexOf(c) < 0) { columns.push(c); } });
      });
      var lines = [['topic', 'name', 'doc_id', 'title'].concat(columns, ['abstract']).map(csvCell).join(',')];
      var label = info.labels[String(topic)] || '';
      chunks.forEach(function (chunk) {
        chunk.text.forEach(function (text, j) {
          var row = chunk.first + j;
          if (topics[row] !== topic) { return; }
          var title = chunk.title[j] === null ? headlines.headline[row] : chunk.title[j];
          var cells = [topic, label, headlines.doc_id[row], title];
          columns.forEach(function (c) { cells.push(chunk.extra[c] ? chunk.extra[c][j] : ''); });
          cells.push(text);
          lines.push(cells.map(csvCell).join(','));
        });
      });
      return lines.join('\r\n') + '\r\n';
    });
  }

  function fileName(topic, label) {
    var slug = String(label || '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
    return (topic < 0 ? 'outliers' : 'topic-' + topic + (slug ? '-' + slug : '')) + '.csv';
  }

  function setupDownloads(info) {
    window.papertopicsTopicCsv = function (topic) { return topicCsv(info, topic); };  // for the tests
    document.querySelectorAll('button[data-csv-topic]').forEach(function (button) {
      button.addEventListener('click', function () {
        var topic = Number(button.getAttribute('data-csv-topic'));
        var text = button.textContent;
        button.disabled = true;
        button.textContent = 'Preparing the CSV\u2026';
        topicCsv(info, topic).then(function (csv) {
          // a BOM, so that Excel reads the file as UTF-8
          var blob = new Blob(['\ufeff' + csv], { type: 'text/csv;charset=utf-8' });
          var link = document.createElement('a');
          link.href = URL.createObjectURL(blob);
          link.download = fileName(topic, info.labels[String(topic)]);
          document.body.appendChild(link);
          link.click();
          link.remove();
          window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
          button.textContent = text;
        }).catch(function (error) {
          button.textContent = String(error.message || error);
          if (window.console) { console.error(error); }
        }).then(function () { button.disabled = false; });
      });
    });
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
    if (data && data.downloads) { setupDownloads(data.downloads); }
    var container = document.getElementById('figure');
    if (!data || !data.figure || !container) { markReady(); return; }
    var isMap = document.body.getAttribute('data-page') === 'documents';
    var packed = isMap ? prepareDocuments(data) : null;
    // The headlines load while the points are drawn; the map's tooltips and lists wait for them.
    var headlines = isMap && data.docs.headline_file ? loadHeadlines(data.docs.headline_file) : null;
    plot(container, data.figure, isMap ? MAP_CONFIG : PLOT_CONFIG).then(function () {
      return headlines;
    }).then(function (list) {
      if (list) { data.docs.headline = list.headline; data.docs.doc_id = list.doc_id; }
      return isMap ? documentMap(container, data, packed) : null;
    }).then(function () {
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
