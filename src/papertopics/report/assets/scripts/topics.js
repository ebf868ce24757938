/* papertopics report, topics: the topic finder beside the document map (the legend, searchable),
 * the highlighting it drives and the zoom to a clicked topic. */
(function (PT) {
  'use strict';

  function topicMatches(t, query) {
    return !query || t.label.toLowerCase().indexOf(query) !== -1 || String(t.topic) === query;
  }

  function listItem(t, onClick) {
    const item = document.createElement('li');
    item.setAttribute('data-topic', String(t.topic));
    const button = document.createElement('button');
    button.type = 'button';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = t.color;
    const name = document.createElement('span');
    name.className = 'name';
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = String(t.size);
    button.appendChild(swatch); button.appendChild(name); button.appendChild(count);
    button.addEventListener('click', onClick);
    item.appendChild(button);
    return { topic: t, item: item, name: name };
  }

  // The label, the part the finder's query matched marked.
  function showName(entry, label, query) {
    entry.name.textContent = '';
    const at = query ? label.toLowerCase().indexOf(query) : -1;
    if (at < 0) { entry.name.textContent = label; return; }
    entry.name.appendChild(document.createTextNode(label.slice(0, at)));
    const mark = document.createElement('mark');
    mark.textContent = label.slice(at, at + query.length);
    entry.name.appendChild(mark);
    entry.name.appendChild(document.createTextNode(label.slice(at + query.length)));
  }

  // `map`: the document map's shared state (see map.js).
  class TopicFinder {
    constructor(map) {
      this.map = map;
      this.entries = [];
      this.styled = '';
    }

    build() {
      const list = document.getElementById('topic-list');
      const ordered = this.map.docs.topics.slice().sort(function (a, b) {
        return (a.topic < 0) - (b.topic < 0) || b.size - a.size || a.topic - b.topic;
      });
      ordered.forEach((t) => {
        const entry = listItem(t, () => this.focus(t.topic));
        list.appendChild(entry.item);
        this.entries.push(entry);
      });
      this.render();
    }

    render() {
      const state = this.map.state, query = state.topicQuery;
      let shown = 0;
      this.entries.forEach(function (entry) {
        const t = entry.topic, label = (t.topic < 0 ? '' : t.topic + ' \u00b7 ') + t.label;
        const hit = topicMatches(t, query);
        entry.item.hidden = !hit;
        entry.item.classList.toggle('hit', !!query && hit);
        entry.item.classList.toggle('focused', state.focus === t.topic);
        showName(entry, label, query);
        if (hit) { shown++; }
      });
      document.getElementById('topic-status').textContent = query
        ? shown + (shown === 1 ? ' topic matches' : ' topics match') + ' \u201c' + query + '\u201d'
        : (this.entries.length - (this.map.topicInfo[-1] ? 1 : 0)) + ' topics \u00b7 click one to zoom to it';
      this.map.container.setAttribute('data-topic-matches', query ? String(shown) : '');
    }

    // The topics to highlight ({topic: true}): the one clicked, else those the finder matches.
    highlighted() {
      const state = this.map.state;
      if (state.focus !== null) { const one = {}; one[state.focus] = true; return one; }
      if (!state.topicQuery) { return null; }
      const set = {};
      this.map.docs.topics.forEach(function (t) { if (topicMatches(t, state.topicQuery)) { set[t.topic] = true; } });
      return set;
    }

    focus(topic) {
      const map = this.map, state = map.state;
      state.focus = state.focus === topic ? null : topic;
      this.render();
      this.styleTraces();
      if (state.focus === null) { map.labels.layout(); return; }
      const o = map.original[map.traceOfTopic[topic]];
      if (!o || !o.x.length) { return; }
      const xs = Array.from(o.x).sort(function (a, b) { return a - b; });
      const ys = Array.from(o.y).sort(function (a, b) { return a - b; });
      const lo = Math.floor(xs.length * 0.02), hi = Math.max(lo, Math.ceil(xs.length * 0.98) - 1);
      const padX = Math.max((xs[hi] - xs[lo]) * 0.25, map.spanX0 * 0.03), padY = Math.max((ys[hi] - ys[lo]) * 0.25, map.spanX0 * 0.03);
      Plotly.relayout(map.gd, { 'xaxis.range': [xs[lo] - padX, xs[hi] + padX], 'yaxis.range': [ys[lo] - padY, ys[hi] + padY] });
    }

    // Points dimmed while searching; other topics pale while some are highlighted.
    styleTraces() {
      const map = this.map;
      const searching = map.state.query.trim() !== '';
      const set = this.highlighted();
      const key = searching + '|' + (set ? Object.keys(set).sort().join(',') : '');
      if (key === this.styled) { return; }
      this.styled = key;
      const opacities = map.topicTraces.map(function (index) {
        const topic = map.traces[index].meta.topic;
        if (searching) { return 0.22; }
        if (set && !set[topic]) { return 0.07; }
        return map.original[index].opacity;
      });
      Plotly.restyle(map.gd, { 'marker.opacity': opacities }, map.topicTraces);
    }
  }

  PT.TopicFinder = TopicFinder;
}(window.papertopicsReport = window.papertopicsReport || {}));
