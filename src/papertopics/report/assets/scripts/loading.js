/* papertopics report, loading: the document map's data files (data/headlines.js, data/docs-<k>.js).
 * A data file is a <script> whose one call hands over compressed bytes as a string (it works on
 * file://, where fetch does not); see documents.chunk_script. */
(function (PT) {
  'use strict';

  // windows-1252 characters that do not stand for their own code (the bytes 0x80-0x9f).
  const CP1252 = { 0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
    0x02c6: 0x88, 0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92,
    0x201c: 0x93, 0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a,
    0x203a: 0x9b, 0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f };

  // A data file's string (its bytes read as windows-1252, one character each) back to the bytes.
  function latin1Bytes(text) {
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      bytes[i] = code < 256 ? code : CP1252[code];
    }
    return bytes;
  }

  // gzip (data/headlines.js, which the map waits for): the browser inflates it off the main thread.
  function gunzipText(bytes) {
    if (!window.DecompressionStream) {
      return Promise.reject(new Error('this browser cannot read the report data (no DecompressionStream): use a current Chrome, Firefox, Edge or Safari'));
    }
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text();
  }

  // Brotli (the abstracts' files, see packed_call) to text: the browser's own decoder where it has
  // one, else the bundled brotli-decode.min.js (~30-80 MB/s), loaded with the first such file so
  // that its parsing and dictionary stay off the map's first render.
  const UTF8 = new TextDecoder('utf-8');
  let decoder = null;
  function brotliDecoder() {
    if (!decoder) {
      decoder = new Promise(function (resolve, reject) {
        if (window.papertopicsBrotli) { resolve(window.papertopicsBrotli); return; }
        const script = document.createElement('script');
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
    let stream = null;
    try { stream = new DecompressionStream('brotli'); } catch (error) { stream = null; }
    if (stream) {
      return new Response(new Blob([bytes]).stream().pipeThrough(stream)).text();
    }
    return brotliDecoder().then(function (brotli) { return UTF8.decode(brotli.decompress(bytes)); });
  }

  // Loads one data file; `take` returns what its call handed over. Resolves to the parsed JSON.
  // gzip is told by its magic bytes, else Brotli.
  PT.loadPacked = function (src, take) {
    return new Promise(function (resolve, reject) {
      const script = document.createElement('script');
      script.src = src;
      script.charset = 'windows-1252';  // one character per byte: see chunk_script
      script.onload = function () {
        script.remove();
        const payload = take();
        if (!payload) { reject(new Error(script.src + ' holds no data')); return; }
        const bytes = latin1Bytes(payload);
        const gzipped = bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b;
        (gzipped ? gunzipText(bytes) : unbrotli(bytes)).then(function (json) { resolve(JSON.parse(json)); }).catch(reject);
      };
      script.onerror = function () {
        reject(new Error('could not load ' + script.src + ': keep the data folder beside this page'));
      };
      document.head.appendChild(script);
    });
  };

  // data/headlines.js: papertopicsHeadlines("<gzip bytes>") with every document's headline and id.
  PT.loadHeadlines = function (src) {
    let payload = null;
    window.papertopicsHeadlines = function (bytes) { payload = bytes; };
    return PT.loadPacked(src, function () { return payload; });
  };

  // The abstracts, metadata and similar papers of the map's documents: data/docs-<k>.js, each
  // loaded once, on demand. `onError(message)` hears of a file that could not be read.
  PT.documentStore = function (docs, onError) {
    const n = docs.n;
    const store = {
      titles: new Array(n), texts: new Array(n), similar: new Array(n), haystack: new Array(n),
      extra: {}, loaded: 0, error: ''
    };
    const chunks = {};
    let everything = null;
    window.papertopicsChunk = function (index, payload) {
      if (chunks[index]) { chunks[index].payload = payload; }
    };
    function install(chunk) {
      chunk.text.forEach(function (text, j) {
        const row = chunk.first + j;
        // null: the title is the headline (sent once, in data/headlines.js)
        store.titles[row] = chunk.title[j] === null ? docs.headline[row] : chunk.title[j];
        store.texts[row] = chunk.text[j];
        store.similar[row] = chunk.similar[j] || [];
        const parts = [store.titles[row], chunk.text[j], docs.doc_id[row]];
        Object.keys(chunk.extra).forEach(function (column) {
          (store.extra[column] = store.extra[column] || new Array(n))[row] = chunk.extra[column][j];
          parts.push(chunk.extra[column][j]);
        });
        store.haystack[row] = parts.join('\n').toLowerCase();
      });
      store.loaded++;
    }
    store.chunkOf = function (row) { return Math.floor(row / docs.chunk_documents); };
    store.load = function (index) {
      if (chunks[index]) { return chunks[index].promise; }
      const entry = chunks[index] = {};
      entry.promise = PT.loadPacked(docs.chunk_folder + '/docs-' + index + '.js', function () {
        const payload = entry.payload;
        entry.payload = null;
        return payload;
      }).then(install);
      entry.promise.catch(function (error) {
        store.error = String(error.message || error);
        onError(store.error);
      });
      return entry.promise;
    };
    store.loadAll = function () {
      if (!everything) {
        const all = [];
        for (let k = 0; k < docs.n_chunks; k++) { all.push(store.load(k)); }
        everything = Promise.all(all);
      }
      return everything;
    };
    return store;
  };
}(window.papertopicsReport = window.papertopicsReport || {}));
