// Entry of the Q&A analytics webview (bundled to dist/webview/analytics.js).
import { analyticsProtocol } from '../../features/qna/analytics/protocol';
import { bootPage } from '../shared/bootPage';
import { AnalyticsView } from './analyticsView';
import { AnalyticsCharts } from './charts';

bootPage(analyticsProtocol, (messenger) => {
  const view = new AnalyticsView(document, messenger);
  const charts = new AnalyticsCharts(window, view.dailyCanvas, view.topCanvas, view.topBox, view.s);
  view.charts = charts;
  // VS Code switches themes by changing <body>'s class: redraw with the new colours.
  new MutationObserver(() => view.retheme()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return view;
});
