/* papertopics report, start: draws the page's figure and starts the page's features.
 * Data comes from <script type="application/json" id="report-data"> (JSON.parse, never eval);
 * listing text is written to the page with textContent only. */
(function (PT) {
  'use strict';

  // A blocked script, style or request is a bug of the report: make it loud (the tests fail on it).
  document.addEventListener('securitypolicyviolation', function (event) {
    console.error('Content-Security-Policy blocked ' + event.violatedDirective + ': ' + (event.blockedURI || 'inline'));
  });

  function start() {
    let data;
    try {
      data = PT.readData();
    } catch (error) {
      PT.markReady(error);
      throw error;
    }
    if (data && data.downloads) { PT.setupDownloads(data.downloads); }
    const container = document.getElementById('figure');
    if (!data || !data.figure || !container) { PT.markReady(); return; }
    const isMap = document.body.getAttribute('data-page') === 'documents';
    const packed = isMap ? PT.prepareDocuments(data) : null;
    // The headlines load while the points are drawn; the map's tooltips and lists wait for them.
    const headlines = isMap && data.docs.headline_file ? PT.loadHeadlines(data.docs.headline_file) : null;
    PT.plot(container, data.figure, isMap ? PT.MAP_CONFIG : PT.PLOT_CONFIG).then(function () {
      return headlines;
    }).then(function (list) {
      if (list) { data.docs.headline = list.headline; data.docs.doc_id = list.doc_id; }
      return isMap ? PT.documentMap(container, data, packed) : null;
    }).then(function () {
      PT.markReady();
    }).catch(function (error) {
      PT.markReady(error);
      if (window.console) { console.error(error); }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}(window.papertopicsReport = window.papertopicsReport || {}));
