// @vscode/l10n, not vscode: the retrieval page's strings and their unit tests use it in plain Node.
import * as l10n from '@vscode/l10n';
import { REGION_INFO, type Region } from '../core/regions';

/** Name and description of the regions that are ours to name (US, JA: the deployments' own, from src/core/regions.ts). */
function ownText(region: Region): { label: string; description: string } | undefined {
  if (region === 'local') return { label: l10n.t('Local'), description: l10n.t('Embedded local service on this machine (offline)') };
  if (region === 'custom') return { label: l10n.t('Custom'), description: l10n.t('On-premises installation (base URL from settings)') };
  return undefined;
}

/** A region's name in the display language (src/core/regions.ts keeps the English one for logs). */
export function regionLabel(region: Region): string {
  return ownText(region)?.label ?? REGION_INFO[region].label;
}

/** The line under a region's name in Select Region (host names for US and JA). */
export function regionDescription(region: Region): string {
  return ownText(region)?.description ?? REGION_INFO[region].description;
}
