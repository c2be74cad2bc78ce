// The extension's setting keys (under `knowledgeDesk.`), without VS Code: unit tests check them against package.json.

export const SettingKeys = {
  region: 'region',
  /** A workspace's preferred connection, by name only: it never creates or changes a connection. */
  connection: 'connection',
  customBaseUrl: 'custom.baseUrl',
  customNluUrl: 'custom.nluUrl',
  agentEmail: 'identity.agentEmail',
  userEmail: 'identity.userEmail',
  ownUserId: 'identity.ownUserId',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  maxRetries: 'maxRetries',
  logRawStream: 'logRawStream',
  localMaxUploadMb: 'local.maxUploadMb',
  /** off | vscode | endpoint: who writes the local service's answers (docs/local-service.md#writer). */
  localWriter: 'local.writer',
  /** {vendor, family, id} of the VS Code language model that writes them. */
  localWriterModel: 'local.writerModel',
  uploadConcurrency: 'upload.concurrency',
  uploadOverwritePolicy: 'upload.overwritePolicy',
  blobStoragePath: 'upload.blobStoragePath',
  qnaAutoRegisterCandidates: 'qna.autoRegisterCandidates',
  qnaRecordSelections: 'qna.recordSearchSelections',
  qnaImportConcurrency: 'qna.importConcurrency',
  /** From this many tests a Test Explorer run goes as one bulk job (0: never; docs/knowledge-tests.md#bulk-mode). */
  testsBulkFrom: 'tests.bulkFrom',
  /** Lets answers show https images (the pages' CSP and sanitizer follow it). */
  allowRemoteImages: 'webview.allowRemoteImages',
  /** The chat participant, language model tools and MCP server definition (organisations may turn them off). */
  aiEnabled: 'ai.enabled',
  /** VS Code gets the tools from the MCP server definition instead of the language model tools (README: "MCP in VS Code"). */
  aiMcpServer: 'ai.mcpServer',
  /** Open Original's download cache in globalStorage, in MB (openOriginal.ts). */
  originalsCacheMb: 'originalsCacheMb',
} as const;
export type SettingKey = (typeof SettingKeys)[keyof typeof SettingKeys];

/**
 * Settings that decide where keys and data go, or what is loaded or logged: `application` (or
 * `machine`) scope in package.json, so VS Code ignores workspace values, and read here from the user's
 * settings only, whatever the host does. The identity settings are here too: they go with the stored
 * key in every request and decide whose personal folders and threads are read and to whom edits are
 * attributed, which a repository must not choose. A unit test keeps this list equal to package.json.
 */
export const USER_ONLY_SETTINGS: readonly SettingKey[] = [
  SettingKeys.region,
  SettingKeys.customBaseUrl,
  SettingKeys.customNluUrl,
  SettingKeys.agentEmail,
  SettingKeys.userEmail,
  SettingKeys.ownUserId,
  SettingKeys.logRawStream,
  SettingKeys.localMaxUploadMb,
  SettingKeys.localWriter,
  SettingKeys.localWriterModel,
  SettingKeys.blobStoragePath,
  SettingKeys.allowRemoteImages,
  SettingKeys.aiEnabled,
  SettingKeys.aiMcpServer,
];
