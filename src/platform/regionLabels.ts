import * as vscode from 'vscode';
import { REGION_INFO, type Region } from '../core/regions';

/** A region's name in the display language (src/core/regions.ts keeps the English one for logs); every feature shows it so. */
export function regionLabel(region: Region): string {
  switch (region) {
    case 'local':
      return vscode.l10n.t('Local');
    case 'custom':
      return vscode.l10n.t('Custom');
    default:
      return REGION_INFO[region].label; // US, JA: the deployments' own names
  }
}

/** The line under a region's name in Select Region. */
export function regionDescription(region: Region): string {
  switch (region) {
    case 'local':
      return vscode.l10n.t('Embedded local service on this machine (offline)');
    case 'custom':
      return vscode.l10n.t('On-premises installation (base URL from settings)');
    default:
      return REGION_INFO[region].description; // host names
  }
}
