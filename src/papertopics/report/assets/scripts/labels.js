/* papertopics report, labels: the names drawn on the document map. Zoomed out, the regions';
 * zoomed in, the topics'. Names are placed greedily, biggest first, each at its anchor or a small
 * offset from it, and left out where every place would touch a name already drawn: no two names
 * overlap. Each name's box is measured as the browser draws it (font, weight, letter spacing). */
(function (PT) {
  'use strict';

  // Zoomed in less than this (relative to the whole map), the names shown are the regions'.
  const REGION_ZOOM = 1.9;
  const PAD = 3;  // pixels kept free around every name

  // A name as one line, or two balanced lines when long: a six-word name (the longest the names
  // stage gives, "large vision-language models (LVLMs) & hallucinations") fits whole.
  function nameLines(text) {
    text = PT.shorten(text, 64);
    if (text.length <= 20) { return [text]; }
    let middle = text.length / 2, best = -1;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === ' ' && (best < 0 || Math.abs(i - middle) < Math.abs(best - middle))) { best = i; }
    }
    return best < 0 ? [text] : [text.slice(0, best), text.slice(best + 1)];
  }

  function overlapsAny(box, placed) {
    for (let p = 0; p < placed.length; p++) {
      const o = placed[p];
      if (box.x0 < o.x1 && o.x0 < box.x1 && box.y0 < o.y1 && o.y0 < box.y1) { return true; }
    }
    return false;
  }

  // The first free box for a name of `size` (width, height) anchored at (px, py) in a plot of
  // `area` (w, h): at the anchor, above, below, right, left; null when none is free.
  function freeBox(px, py, size, area, placed) {
    const width = size.width, height = size.height;
    const offsets = [[0, 0], [0, -0.9 * height], [0, 0.9 * height], [0.6 * width, 0], [-0.6 * width, 0]];
    for (let k = 0; k < offsets.length; k++) {
      const box = { x0: px + offsets[k][0] - width / 2 - PAD, y0: py + offsets[k][1] - height / 2 - PAD };
      box.x1 = box.x0 + width + 2 * PAD; box.y1 = box.y0 + height + 2 * PAD;
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > area.w || box.y1 > area.h) { continue; }
      if (!overlapsAny(box, placed)) { return box; }
    }
    return null;
  }

  function nameSpan(item, dim) {
    const span = document.createElement('span');
    span.className = 'map-label ' + item.kind + (dim ? ' dim' : '');
    span.setAttribute('data-' + item.kind, String(item.id));
    span.textContent = nameLines(item.label).join('\n');
    span.style.fontSize = item.fontSize + 'px';
    span.style.color = item.color;
    return span;
  }

  // `map`: the document map's shared state (see map.js).
  class MapLabels {
    constructor(map) {
      const docs = map.docs;
      this.map = map;
      this.layer = document.getElementById('map-labels');
      this.maxTopicSize = 1;
      this.maxRegionSize = 1;
      docs.topics.forEach((t) => { if (t.topic >= 0) { this.maxTopicSize = Math.max(this.maxTopicSize, t.size); } });
      docs.regions.forEach((r) => { this.maxRegionSize = Math.max(this.maxRegionSize, r.size); });
      this.namedTopics = docs.topics.filter(function (t) { return t.topic >= 0 && t.x !== null; });
      this.useRegions = docs.regions.length > 0 && docs.regions.length < this.namedTopics.length;
      this.measured = {};  // kind:id -> the name's drawn width and height in pixels
      this.frame = 0;
      this.schedule = this.schedule.bind(this);
      if (document.fonts && document.fonts.ready) {  // a font that arrives later draws other sizes
        document.fonts.ready.then(() => { this.measured = {}; this.schedule(); });
      }
    }

    visibleTopic(topic) {
      const index = this.map.traceOfTopic[topic], traces = this.map.traces;
      return index !== undefined && traces[index].visible !== 'legendonly' && traces[index].visible !== false;
    }

    regionItems() {
      const shown = {}, maxSize = this.maxRegionSize;
      this.namedTopics.forEach((t) => { if (this.visibleTopic(t.topic)) { shown[t.region] = true; } });
      return this.map.docs.regions.filter(function (r) { return shown[r.region]; }).map(function (r) {
        return { kind: 'region', id: r.region, label: r.label, x: r.x, y: r.y, size: r.size,
                 fontSize: Math.round(13 + 7 * Math.sqrt(r.size / maxSize)), color: '#2b3442', priority: 0 };
      });
    }

    topicItems(set) {
      const maxSize = this.maxTopicSize;
      return this.namedTopics.filter((t) => this.visibleTopic(t.topic)).map(function (t) {
        return { kind: 'topic', id: t.topic, label: t.label, x: t.x, y: t.y, size: t.size,
                 fontSize: Math.round(11 + 5 * Math.sqrt(t.size / maxSize)),
                 color: PT.darker(t.color, 0.55), priority: set && set[t.topic] ? 1 : 0 };
      });
    }

    // Measures, in one layout pass, every name not measured before (sizes never change).
    measure(items) {
      const fresh = items.filter((item) => !this.measured[item.kind + ':' + item.id]);
      if (!fresh.length) { return; }
      const spans = fresh.map((item) => {
        const span = nameSpan(item, false);
        span.style.visibility = 'hidden';
        this.layer.appendChild(span);
        return span;
      });
      fresh.forEach((item, i) => {
        const rect = spans[i].getBoundingClientRect();
        this.measured[item.kind + ':' + item.id] = { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
      });
      spans.forEach(function (span) { span.remove(); });
    }

    layout() {
      const map = this.map, full = map.gd._fullLayout;
      if (!full || !full.xaxis) { return; }
      const xa = full.xaxis, ya = full.yaxis, area = full._size;
      const zoom = map.spanX0 / Math.abs(xa.range[1] - xa.range[0]);
      const set = map.topics.highlighted();
      // Zoomed out: the regions; a topic searched for or clicked is named itself.
      const regionLevel = this.useRegions && zoom < REGION_ZOOM && !set;
      const items = (regionLevel ? this.regionItems() : this.topicItems(set)).sort(function (a, b) {
        return b.priority - a.priority || b.size - a.size || a.id - b.id;
      }).filter(function (item) {
        item.px = xa.l2p(item.x); item.py = ya.l2p(item.y);
        return item.px >= 0 && item.px <= area.w && item.py >= 0 && item.py <= area.h;
      });
      this.measure(items);
      const placed = [];
      const fragment = document.createDocumentFragment();
      items.forEach((item) => {
        const box = freeBox(item.px, item.py, this.measured[item.kind + ':' + item.id], area, placed);
        if (!box) { return; }
        placed.push(box);
        const span = nameSpan(item, set && !item.priority && item.kind === 'topic');
        span.style.left = (area.l + box.x0 + PAD) + 'px';
        span.style.top = (area.t + box.y0 + PAD) + 'px';
        fragment.appendChild(span);
      });
      this.layer.textContent = '';
      this.layer.appendChild(fragment);
      map.container.setAttribute('data-label-level', regionLevel ? 'regions' : 'topics');
      map.container.setAttribute('data-labels', String(placed.length));
    }

    // Lays the names out at the next frame (zooming fires many events per frame).
    schedule() {
      if (this.frame) { return; }
      this.frame = window.requestAnimationFrame(() => { this.frame = 0; this.layout(); });
    }
  }

  PT.MapLabels = MapLabels;
}(window.papertopicsReport = window.papertopicsReport || {}));
