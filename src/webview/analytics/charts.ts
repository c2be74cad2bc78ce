// The two charts of the analytics page. Only the Chart.js pieces used are registered (tree-shaken
// bundle). Chart.js sizes canvases through element.style (CSSOM), which the CSP allows.
import { charCount } from '../../core/charCount';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartOptions,
} from 'chart.js';
import type { AnalyticsStrings } from '../../features/qna/analytics/analyticsStrings';
import type { AnalyticsData } from '../../features/qna/analytics/protocol';
import { themeColor } from '../shared/dom';
import { format, pageLanguage } from '../shared/strings';
import { formatDay, percent } from './tables';

Chart.register(LineController, LineElement, PointElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

interface Theme {
  fg: string;
  muted: string;
  grid: string;
  line: string;
  shown: string;
  selected: string;
  tooltipBg: string;
  tooltipBorder: string;
  font: string;
  fontSize: number;
}

/** Colours from VS Code's theme variables, read again when the theme changes. */
function readTheme(win: Window): Theme {
  const c = (name: string, fallback: string): string => themeColor(win, name, fallback);
  return {
    fg: c('--vscode-charts-foreground', c('--vscode-foreground', '#cccccc')),
    muted: c('--vscode-descriptionForeground', '#999999'),
    grid: withAlpha(c('--vscode-charts-lines', '#80808080'), 0.35),
    line: c('--vscode-charts-blue', '#3794ff'),
    shown: withAlpha(c('--vscode-charts-blue', '#3794ff'), 0.55),
    selected: c('--vscode-charts-orange', '#d18616'),
    tooltipBg: c('--vscode-editorHoverWidget-background', '#252526'),
    tooltipBorder: c('--vscode-editorHoverWidget-border', '#454545'),
    font: c('--vscode-font-family', 'sans-serif'),
    fontSize: parseFloat(c('--vscode-font-size', '13')) || 13,
  };
}

/** #rgb / #rrggbb / #rrggbbaa with a new alpha; other colour forms are returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim());
  if (!m) return color;
  const hex = m[1].length === 3 ? [...m[1]].map((x) => x + x).join('') : m[1].slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

export function shortLabel(text: string, max = 42): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

export class AnalyticsCharts {
  private daily: Chart<'line'> | undefined;
  private top: Chart<'bar'> | undefined;
  private data: AnalyticsData | undefined;

  constructor(
    private readonly win: Window,
    private readonly dailyCanvas: HTMLCanvasElement,
    private readonly topCanvas: HTMLCanvasElement,
    private readonly topBox: HTMLElement,
    private readonly s: AnalyticsStrings,
  ) {}

  /** Draws (or redraws) both charts; returns how many points and bars were drawn. */
  draw(data: AnalyticsData): { dailyPoints: number; topBars: number } {
    this.data = data;
    const t = readTheme(this.win);
    const s = this.s;
    const doc = this.win.document;
    Chart.defaults.color = t.fg;
    Chart.defaults.font.family = t.font;
    Chart.defaults.font.size = t.fontSize - 1;
    this.daily?.destroy();
    this.top?.destroy();
    this.daily = new Chart(this.dailyCanvas, {
      type: 'line',
      data: {
        labels: data.daily.map((d) => formatDay(d.date, true, doc)),
        datasets: [
          {
            label: s.searches,
            data: data.daily.map((d) => d.count),
            borderColor: t.line,
            backgroundColor: t.line,
            pointRadius: 3,
            pointHoverRadius: 5,
            borderWidth: 2,
            cubicInterpolationMode: 'monotone',
          },
        ],
      },
      options: this.options<'line'>(t, false, {
        plugins: {
          tooltip: { callbacks: { title: (items) => formatDay(data.daily[items[0]?.dataIndex ?? 0]?.date ?? '', false, doc) } },
        },
      }),
    });
    // One row per Q&A: the canvas grows with N (set through the CSSOM).
    this.topBox.style.height = `${Math.max(140, data.top.length * 34 + 70)}px`;
    this.topBox.hidden = data.top.length === 0;
    this.top = new Chart(this.topCanvas, {
      type: 'bar',
      data: {
        // Half-width charts clip long axis labels at their start: keep them short, the tooltip has the full question.
        labels: data.top.map((q, i) => `${i + 1}. ${shortLabel(q.question, 28)}`),
        datasets: [
          {
            label: s.shown,
            data: data.top.map((q) => q.shown),
            backgroundColor: t.shown,
            borderColor: t.line,
            borderWidth: 1,
            borderRadius: 2,
          },
          { label: s.selected, data: data.top.map((q) => q.selected), backgroundColor: t.selected, borderRadius: 2 },
        ],
      },
      options: this.options<'bar'>(t, true, {
        indexAxis: 'y',
        plugins: {
          tooltip: {
            callbacks: {
              title: (items) => wrap(data.top[items[0]?.dataIndex ?? 0]?.question ?? '', 60),
              afterBody: (items) => {
                const q = data.top[items[0]?.dataIndex ?? 0];
                return q ? format(s.selectedRatioValue, percent(q.selectedRatio, 1, doc)) : '';
              },
            },
          },
        },
      }),
    });
    return { dailyPoints: this.daily.getDatasetMeta(0).data.length, topBars: this.top.getDatasetMeta(0).data.length };
  }

  /** The theme changed: redraw with the new colours. */
  retheme(): void {
    if (this.data) this.draw(this.data);
  }

  private options<T extends 'line' | 'bar'>(t: Theme, legend: boolean, extra: ChartOptions<T>): ChartOptions<T> {
    const axis = { grid: { color: t.grid }, border: { color: t.grid }, ticks: { color: t.muted } };
    const base = {
      // Numbers on the axes and in tooltips in the display language (Chart.js formats them with Intl).
      locale: pageLanguage(this.win.document),
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', intersect: false, axis: (extra as { indexAxis?: string }).indexAxis === 'y' ? 'y' : 'x' },
      scales: {
        x: { ...axis, beginAtZero: true, ticks: { ...axis.ticks, precision: 0, autoSkip: true, maxRotation: 0 } },
        y: { ...axis, beginAtZero: true, ticks: { ...axis.ticks, precision: 0 } },
      },
      plugins: {
        legend: { display: legend, position: 'top', align: 'end', labels: { color: t.fg, boxWidth: 12, boxHeight: 12 } },
        tooltip: {
          backgroundColor: t.tooltipBg,
          borderColor: t.tooltipBorder,
          borderWidth: 1,
          titleColor: t.fg,
          bodyColor: t.fg,
          footerColor: t.muted,
          padding: 8,
          displayColors: true,
        },
      },
    } as unknown as ChartOptions<T>;
    return merge(base, extra) as ChartOptions<T>;
  }
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    line += ch;
    if (charCount(line) >= width) {
      lines.push(line);
      line = '';
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, 4);
}

function merge(a: unknown, b: unknown): unknown {
  if (!isPlain(a) || !isPlain(b)) return b === undefined ? a : b;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v);
  return out;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}
