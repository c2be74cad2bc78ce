// Entry of the Q&A analytics webview (bundled to dist/webview/analytics.js).
import { analyticsProtocol } from '../../features/qna/analytics/protocol';
import { watchPageProblems } from '../shared/dom';
import { Messenger } from '../shared/messenger';
import { AnalyticsView } from './analyticsView';
import { AnalyticsCharts } from './charts';

const messenger = new Messenger(analyticsProtocol);
watchPageProblems(window, (kind, message) => messenger.notify('pageProblem', { kind, message: message.slice(0, 2_000) }));
const view = new AnalyticsView(document, messenger);
const charts = new AnalyticsCharts(window, view.dailyCanvas, view.topCanvas, view.topBox);
view.charts = charts;
// VS Code switches themes by changing <body>'s class: redraw with the new colours.
new MutationObserver(() => view.retheme()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
view.start(document.getElementById('app')!);
