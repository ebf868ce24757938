/* papertopics report, panel: what the document map says about one document, as text only: the
 * tooltip of a point, and the side panel of a clicked one (its abstract, metadata, similar papers). */
(function (PT) {
  'use strict';

  function addMeta(list, name, value) {
    if (value === undefined || value === null || value === '') { return; }
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    if (name === 'url' && /^https?:\/\//i.test(String(value))) {
      const link = document.createElement('a');
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

  function tipLine(tooltip, className, text) {
    const line = document.createElement('span');
    line.className = className;
    line.textContent = text;
    tooltip.appendChild(line);
  }

  function similarItem(entry, docs, topicName, show) {
    const other = entry[0];
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = docs.headline[other];
    button.addEventListener('click', function () { show(other); });
    const topic = document.createElement('span');
    topic.className = 'similar-topic';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = docs.topic_colors[String(docs.topic[other])] || '#999';
    topic.appendChild(swatch);
    topic.appendChild(document.createTextNode(topicName + ' \u00b7 similarity ' + Number(entry[1]).toFixed(2)));
    item.appendChild(button);
    item.appendChild(topic);
    return item;
  }

  // `map`: the document map's shared state (see map.js).
  class DocumentPanel {
    constructor(map) {
      this.map = map;
      this.tooltip = document.getElementById('map-tooltip');
      this.selecting = 0;
      this.hover = this.hover.bind(this);
      this.unhover = this.unhover.bind(this);
    }

    topicName(topic) {
      return (topic < 0 ? '' : 'Topic ' + topic + ': ') + (this.map.docs.topic_labels[String(topic)] || '');
    }

    listingNames(row) {
      const docs = this.map.docs;
      return docs.listings[row].map(function (i) { return docs.listing_names[i]; }).join(', ');
    }

    hover(event) {
      const point = event && event.points && event.points[0];
      if (!point) { return; }
      const docs = this.map.docs, gd = this.map.gd, tooltip = this.tooltip, nearest = this.map.packed.nearest;
      const row = point.customdata;
      tooltip.textContent = '';
      tipLine(tooltip, 'tip-title', PT.shorten(docs.headline[row], docs.hover_chars || 150));
      tipLine(tooltip, 'tip-meta', 'listing: ' + this.listingNames(row));
      tipLine(tooltip, 'tip-meta', 'topic: ' + this.topicName(docs.topic[row]));
      if (nearest && nearest[row]) { tipLine(tooltip, 'tip-meta', 'assigned to its nearest topic'); }
      const layout = gd._fullLayout;
      const px = layout._size.l + point.xaxis.l2p(point.x), py = layout._size.t + point.yaxis.l2p(point.y);
      tooltip.hidden = false;
      let left = px + 14, top = py + 14;
      if (left + tooltip.offsetWidth > gd.clientWidth) { left = Math.max(0, px - 14 - tooltip.offsetWidth); }
      if (top + tooltip.offsetHeight > gd.clientHeight) { top = Math.max(0, py - 14 - tooltip.offsetHeight); }
      tooltip.style.left = left + 'px';
      tooltip.style.top = top + 'px';
    }

    unhover() { this.tooltip.hidden = true; }

    showSimilar(row) {
      const docs = this.map.docs;
      const section = document.getElementById('similar');
      const list = document.getElementById('similar-list');
      list.textContent = '';
      const entries = this.map.store.similar[row] || [];
      section.hidden = !docs.has_neighbours || !entries.length;
      entries.forEach((entry) => {
        list.appendChild(similarItem(entry, docs, this.topicName(docs.topic[entry[0]]), (other) => this.show(other)));
      });
    }

    // Fills the panel with one document; resolves once its data file is read.
    show(row) {
      const map = this.map, docs = map.docs, store = map.store;
      if (row === undefined || row === null || row < 0 || row >= map.n) { return Promise.resolve(); }
      const ticket = ++this.selecting;
      const topic = String(docs.topic[row]);
      document.getElementById('doc-empty').hidden = true;
      document.getElementById('doc').hidden = false;
      document.getElementById('doc-swatch').style.background = docs.topic_colors[topic] || '#999';
      document.getElementById('doc-topic').textContent = this.topicName(docs.topic[row]);
      document.getElementById('doc-title').textContent = docs.headline[row];
      document.getElementById('doc-text').textContent = store.texts[row] === undefined ? 'loading\u2026' : store.texts[row];
      return store.load(store.chunkOf(row)).then(() => {
        if (ticket !== this.selecting) { return; }
        const meta = document.getElementById('doc-meta');
        meta.textContent = '';
        addMeta(meta, 'listing', this.listingNames(row));
        Object.keys(store.extra).forEach(function (column) { addMeta(meta, column, store.extra[column][row]); });
        addMeta(meta, 'doc id', docs.doc_id[row]);
        document.getElementById('doc-text').textContent = store.texts[row];
        this.showSimilar(row);
        map.container.setAttribute('data-selected', docs.doc_id[row]);
      });
    }
  }

  PT.DocumentPanel = DocumentPanel;
}(window.papertopicsReport = window.papertopicsReport || {}));
