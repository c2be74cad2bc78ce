// Katakana loanwords and the English words they come from, both ways: a Japanese manual often keeps the
// English term (apt-pinning, hostname, /etc/hosts) where a user asks in katakana (ピン留め, ホスト名), and an
// English question may meet a Japanese page that writes the word in katakana. A small curated table of
// common computing loanwords; each side is reduced to its index form (analysis.ts) when the table is built.
import { termOf } from './analysis';

const PAIRS: ReadonlyArray<readonly [katakana: string, english: string]> = [
  ['ピン', 'pin'],
  ['名', 'name'],
  ['ホスト', 'host'],
  ['サーバー', 'server'],
  ['クライアント', 'client'],
  ['パッケージ', 'package'],
  ['インストール', 'install'],
  ['アンインストール', 'uninstall'],
  ['アップグレード', 'upgrade'],
  ['アップデート', 'update'],
  ['ダウンロード', 'download'],
  ['アップロード', 'upload'],
  ['ネットワーク', 'network'],
  ['インターフェース', 'interface'],
  ['インタフェース', 'interface'],
  ['アドレス', 'address'],
  ['ドメイン', 'domain'],
  ['メール', 'mail'],
  ['ファイル', 'file'],
  ['ディレクトリ', 'directory'],
  ['フォルダー', 'folder'],
  ['ディスク', 'disk'],
  ['パーティション', 'partition'],
  ['カーネル', 'kernel'],
  ['モジュール', 'module'],
  ['ドライバー', 'driver'],
  ['デバイス', 'device'],
  ['プリンター', 'printer'],
  ['キーボード', 'keyboard'],
  ['マウス', 'mouse'],
  ['ユーザー', 'user'],
  ['パスワード', 'password'],
  ['アカウント', 'account'],
  ['ログイン', 'login'],
  ['セキュリティ', 'security'],
  ['バグ', 'bug'],
  ['パッチ', 'patch'],
  ['バージョン', 'version'],
  ['リリース', 'release'],
  ['ソース', 'source'],
  ['バイナリ', 'binary'],
  ['ライブラリ', 'library'],
  ['コマンド', 'command'],
  ['シェル', 'shell'],
  ['スクリプト', 'script'],
  ['プログラム', 'program'],
  ['ソフトウェア', 'software'],
  ['ハードウェア', 'hardware'],
  ['アーキテクチャ', 'architecture'],
  ['ミラー', 'mirror'],
  ['アーカイブ', 'archive'],
  ['リポジトリ', 'repository'],
  ['キャッシュ', 'cache'],
  ['プロキシ', 'proxy'],
  ['ブート', 'boot'],
  ['ログ', 'log'],
  ['メンテナー', 'maintainer'],
  ['メンテナ', 'maintainer'],
  ['ライセンス', 'license'],
  ['ドキュメント', 'documentation'],
  ['マニュアル', 'manual'],
  ['メーリングリスト', 'mailing'],
  ['ウェブ', 'web'],
  ['ブラウザー', 'browser'],
  ['キー', 'key'],
  ['タイムゾーン', 'timezone'],
  ['ロケール', 'locale'],
  ['フォント', 'font'],
  ['デスクトップ', 'desktop'],
  ['ターミナル', 'terminal'],
  ['コンソール', 'console'],
  ['プロセス', 'process'],
  ['メモリ', 'memory'],
  ['バックアップ', 'backup'],
  ['ポート', 'port'],
  ['ファイアウォール', 'firewall'],
  ['ルーター', 'router'],
  ['ゲートウェイ', 'gateway'],
];

let table: Map<string, string[]> | undefined;

/** The index terms linked to index term `term` (empty when none). */
export function loanwordLinks(term: string): readonly string[] {
  if (!table) {
    table = new Map();
    const link = (from: string, to: string): void => {
      const list = table!.get(from) ?? [];
      if (!list.includes(to)) list.push(to);
      table!.set(from, list);
    };
    for (const [ja, en] of PAIRS) {
      const k = termOf(ja.normalize('NFKC'));
      const e = termOf(en);
      link(k, e);
      link(e, k);
    }
  }
  return table.get(term) ?? [];
}
