// Only the ECharts parts the statistics use (tree-shaken), loaded with the statistics page.
import { use, init, type ECharts } from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent, AriaComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

// the browser draws on a canvas; the server (entry-server.ts) writes the first screen's charts as SVG
use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  AriaComponent,
  import.meta.env.SSR ? SVGRenderer : CanvasRenderer,
]);

export { init, type ECharts };
