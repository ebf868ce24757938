/* papertopics report, topics: the topic finder beside the document map (the legend, searchable),
 * the highlighting it drives and the zoom to a clicked topic. */
(function (PT) {
  'use strict';

  function topicMatches(t, query) {
    return !query || t.label.toLowerCase().indexOf(query) !== -1 || String(t.topic) === query;
  }

  function listItem(t, onClick) {
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
    button.addEventListener('click', onClick);
    item.appendChild(button);
    return { topic: t, item: item, name: name };
  }

  // The label, the part the finder's query matched marked.
  function showName(entry, label, query) {
    entry.name.textContent = '';
    var at = query ? label.toLowerCase().indexOf(query) : -1;
    if (at < 0) { entry.name.textContent = label; return; }
    entry.name.appendChild(document.createTextNode(label.slice(0, at)));
    var mark = document.createElement('mark');
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
      var list = document.getElementById('topic-list');
      var ordered = this.map.docs.topics.slice().sort(function (a, b) {
        return (a.topic < 0) - (b.topic < 0) || b.size - a.size || a.topic - b.topic;
      });
      ordered.forEach((t) => {
        var entry = listItem(t, () => this.focus(t.topic));
        list.appendChild(entry.item);
        this.entries.push(entry);
      });
      this.render();
    }

    render() {
      var state = this.map.state, query = state.topicQuery;
      var shown = 0;
      this.entries.forEach(function (entry) {
        var t = entry.topic, label = (t.topic < 0 ? '' : t.topic + ' \u00b7 ') + t.label;
        var hit = topicMatches(t, query);
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
      var state = this.map.state;
      if (state.focus !== null) { var one = {}; one[state.focus] = true; return one; }
      if (!state.topicQuery) { return null; }
      var set = {};
      this.map.docs.topics.forEach(function (t) { if (topicMatches(t, state.topicQuery)) { set[t.topic] = true; } });
      return set;
    }

    focus(topic) {
      var map = this.map, state = map.state;
      state.focus = state.focus === topic ? null : topic;
      this.render();
      this.styleTraces();
      if (state.focus === null) { map.labels.layout(); return; }
      var o = map.original[map.traceOfTopic[topic]];
      if (!o || !o.x.length) { return; }
      var xs = Array.from(o.x).sort(function (a, b) { return a - b; });
      var ys = Array.from(o.y).sort(function (a, b) { return a - b; });
      var lo = Math.floor(xs.length * 0.02), hi = Math.max(lo, Math.ceil(xs.length * 0.98) - 1);
      var padX = Math.max((xs[hi] - xs[lo]) * 0.25, map.spanX0 * 0.03), padY = Math.max((ys[hi] - ys[lo]) * 0.25, map.spanX0 * 0.03);
      Plotly.relayout(map.gd, { 'xaxis.range': [xs[lo] - padX, xs[hi] + padX], 'yaxis.range': [ys[lo] - padY, ys[hi] + padY] });
    }

    // Points dimmed while searching; other topics pale while some are highlighted.
    styleTraces() {
      var map = this.map;
      var searching = map.state.query.trim() !== '';
      var set = this.highlighted();
      var key = searching + '|' + (set ? Object.keys(set).sort().join(',') : '');
      if (key === this.styled) { return; }
      this.styled = key;
      var opacities = map.topicTraces.map(function (index) {
        var topic = map.traces[index].meta.topic;
        if (searching) { return 0.22; }
        if (set && !set[topic]) { return 0.07; }
        return map.original[index].opacity;
      });
      Plotly.restyle(map.gd, { 'marker.opacity': opacities }, map.topicTraces);
    }
  }

  PT.TopicFinder = TopicFinder;
}(window.papertopicsReport = window.papertopicsReport || {}));
