/* lparscope dashboard: draws the page's charts with the vendored uPlot; filters submit on change. */
(function () {
  "use strict";
  document.querySelectorAll("#filters select").forEach(function (sel) {
    sel.addEventListener("change", function () { sel.form.submit(); });
  });
  var holder = document.getElementById("chart-data");
  if (!holder || typeof uPlot === "undefined") { return; }
  var specs = JSON.parse(holder.textContent);
  var COLORS = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf8700", "#57606a"];
  document.querySelectorAll("figure.chart").forEach(function (fig) {
    var spec = specs[Number(fig.dataset.chart)];
    if (!spec || !spec.x || spec.x.length === 0) { return; }
    var target = fig.querySelector(".plot");
    var series = [{}];
    var data = [spec.x];
    spec.series.forEach(function (s, i) {
      series.push({ label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false,
                    value: function (u, v) { return v == null ? "-" : v.toFixed(2) + " " + spec.unit; } });
      data.push(s.values);
    });
    var width = Math.max(320, target.clientWidth || 800);
    new uPlot({ title: spec.title, width: width, height: 250, series: series,
                tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
                axes: [{}, { label: spec.unit }], scales: { x: { time: true } } }, data, target);
  });
}());
