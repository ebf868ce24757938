/* papertopics report, search: the document map's search box and listing filter, the matches
 * drawn on the map and listed below it. */
(function (PT) {
  'use strict';

  function listMatches(found, show) {
    const section = document.getElementById('matches');
    const list = document.getElementById('match-list');
    list.textContent = '';
    if (!found) { section.hidden = true; return; }
    section.hidden = false;
    document.getElementById('matches-heading').textContent =
      found.length ? (found.length > 100 ? 'First 100 of ' + found.length + ' matches' : found.length + ' matching documents')
                   : 'No document matches';
    found.slice(0, 100).forEach(function (row) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = show.headline(row);
      button.addEventListener('click', function () { show.document(row); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // `map`: the document map's shared state (see map.js).
  class DocumentSearch {
    constructor(map) {
      this.map = map;
      this.drawn = { listing: '|', matches: 0 };
      this.reading = false;
      // Until its data file is read, a document is searched by its headline (title or first
      // words) and id, so a search answers at once on a big listing and refines as files arrive.
      this.headHay = new Array(map.n);
    }

    // The listing filter and the years' brush (fields.js).
    inListing(row) {
      const listing = this.map.state.listing;
      return (listing === '' || this.map.docs.listings[row].indexOf(Number(listing)) !== -1) && this.map.fields.keep(row);
    }

    // A word, or "journal:nature", "author:smith", "venue:..." for one metadata column (read from
    // the data files: until they are, such a term matches nothing and the search refines).
    // author: and venue: are the listing's own author and venue columns, whatever they are called;
    // a column is named in any capitals, with _ for its spaces ("author_keywords:graph").
    parseTerm(term) {
      const at = term.indexOf(':'), extra = this.map.store.extra, docs = this.map.docs;
      if (at < 1 || at === term.length - 1) { return term; }
      // "cited:>100", "cited:<=5", "cited:0" (the uncited), "cited:>1,000" or "cited:>1_000": the
      // citations field (report.citations), compared as numbers
      const cited = /^cited:(>=|<=|>|<|=)?(\d{1,3}(?:[,_]\d{3})+|\d+)$/.exec(term), citations = this.map.fields.fields.citations;
      if (cited && citations) { return { numeric: citations, op: cited[1] || '=', number: Number(cited[2].replace(/[,_]/g, '')) }; }
      const venue = (docs.fields || []).filter(function (f) { return f.kind === 'category'; })[0];
      const aliases = { author: docs.author_column || 'authors', venue: venue ? venue.name : '' };
      const key = function (name) { return String(name).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, ''); };
      const wanted = key(aliases[term.slice(0, at)] || term.slice(0, at));
      const column = Object.keys(extra).find(function (c) { return key(c) === wanted; });
      // author: a row without full names is searched in its authors (docs.author_fallback)
      const fallback = term.slice(0, at) === 'author' && docs.author_fallback ? Object.keys(extra).find(function (c) { return key(c) === key(docs.author_fallback[0]); }) : undefined;
      return column || aliases[term.slice(0, at)] ? { column: column, fallback: fallback, value: term.slice(at + 1) } : term;
    }

    matches(row, terms) {
      const docs = this.map.docs, extra = this.map.store.extra;
      let hay = this.map.store.haystack[row];
      if (hay === undefined) {
        hay = this.headHay[row] || (this.headHay[row] = (docs.headline[row] + '\n' + docs.doc_id[row]).toLowerCase());
      }
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k];
        if (typeof term === 'string') {
          if (hay.indexOf(term) === -1) { return false; }
          continue;
        }
        if (term.numeric) {
          const v = term.numeric.values[row] - 1, n = term.number;  // -1: no count, never a match
          const ok = { '>': v > n, '>=': v >= n, '<': v < n, '<=': v <= n, '=': v === n }[term.op];
          if (v < 0 || !ok) { return false; }
          continue;
        }
        let value = term.column && extra[term.column] ? extra[term.column][row] : undefined;
        if ((value === undefined || value === '') && term.fallback && extra[term.fallback]) { value = extra[term.fallback][row]; }
        if (value === undefined || String(value).toLowerCase().indexOf(term.value) === -1) { return false; }
      }
      return true;
    }

    // Reads every data file for a search, redrawing the matches about twice a second meanwhile.
    readForSearch() {
      if (this.reading) { return; }
      const store = this.map.store, state = this.map.state, chunks = this.map.docs.n_chunks;
      this.reading = true;
      let last = performance.now();
      for (let k = 0; k < chunks; k++) {
        store.load(k).then(() => {
          if (performance.now() - last > 500 && store.loaded < chunks) {
            last = performance.now();
            if (state.query.trim()) { this.apply(); }
          }
        }, function () {});
      }
      store.loadAll().then(() => {
        this.reading = false;
        if (state.query.trim()) { this.apply(); }
      }, () => { this.reading = false; });
    }

    // The listing filter: points of other listings are hidden (null coordinates).
    drawListing() {
      const map = this.map;
      const key = map.state.listing + '|' + (map.state.years || '');
      if (key === this.drawn.listing) { return; }
      const xs = [], ys = [];
      map.topicTraces.forEach((index) => {
        const o = map.original[index];
        const x = new Array(o.x.length), y = new Array(o.y.length);
        for (let j = 0; j < o.rows.length; j++) {
          const keep = this.inListing(o.rows[j]);
          x[j] = keep ? o.x[j] : null;
          y[j] = keep ? o.y[j] : null;
        }
        xs.push(x); ys.push(y);
      });
      Plotly.restyle(map.gd, { x: xs, y: ys }, map.topicTraces);
      this.drawn.listing = key;
    }

    drawMatches(found) {
      const map = this.map;
      if (map.matchTrace < 0 || !(found.length || this.drawn.matches)) { return; }
      this.drawn.matches = found.length;
      Plotly.restyle(map.gd, {
        x: [found.map(function (row) { return map.packed.xs[row]; })],
        y: [found.map(function (row) { return map.packed.ys[row]; })],
        customdata: [found]
      }, [map.matchTrace]);
    }

    statusText(shown, found, searching, partial) {
      const store = this.map.store;
      let text = shown + ' of ' + this.map.n + ' documents shown';
      if (searching) { text += ' \u00b7 ' + found.length + (found.length === 1 ? ' match' : ' matches'); }
      if (partial && store.error) {
        text += ' in the titles \u00b7 ' + store.error;
      } else if (partial) {
        text += ' so far (titles; reading the abstracts: ' + store.loaded + ' of ' + this.map.docs.n_chunks + ' files)\u2026';
      }
      return text;
    }

    // Redraws the map, the status line and the list of matches for the controls' state.
    apply() {
      const map = this.map, n = map.n;
      const terms = map.state.query.toLowerCase().split(/\s+/).filter(Boolean).map((term) => this.parseTerm(term));
      const searching = terms.length > 0;
      const partial = searching && map.store.loaded < map.docs.n_chunks;
      if (partial) { this.readForSearch(); }
      let shown = 0;
      for (let r = 0; r < n; r++) { if (this.inListing(r)) { shown++; } }
      this.drawListing();
      map.topics.styleTraces();
      const found = [];
      if (searching) {
        for (let row = 0; row < n; row++) {
          if (this.inListing(row) && this.matches(row, terms)) { found.push(row); }
        }
      }
      this.drawMatches(found);
      map.status.textContent = this.statusText(shown, found, searching, partial);
      map.container.setAttribute('data-matches', String(found.length));
      map.container.setAttribute('data-shown', String(shown));
      listMatches(searching ? found : null, {
        headline: function (row) { return map.docs.headline[row]; },
        document: function (row) { map.panel.show(row); }
      });
    }
  }

  PT.DocumentSearch = DocumentSearch;
}(window.papertopicsReport = window.papertopicsReport || {}));
