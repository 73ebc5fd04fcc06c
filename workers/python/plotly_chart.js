// Draws the Plotly chart of the file it is in (written by rich_output.py): the figure is the JSON data block
// #pyodide-mcp-figure, never script text, so this script is the same in every chart. That is what lets the MCP App
// (src/view/mcp-apps.ts) allow it, and the plotly.js bundle beside it, by hash, and no other script.
(function () {
  'use strict';
  var spec = JSON.parse(document.getElementById('pyodide-mcp-figure').textContent);
  var chart = document.getElementById('pyodide-mcp-chart');
  var frames = spec.frames || [];
  window.PLOTLYENV = window.PLOTLYENV || {};
  Plotly.newPlot(chart, spec.data, spec.layout, spec.config)
    .then(function () {
      if (frames.length) return Plotly.addFrames(chart, frames);
    })
    .then(function () {
      if (frames.length && spec.auto_play) return Plotly.animate(chart, null, spec.animation_opts);
    });
})();
