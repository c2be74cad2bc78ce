// The one table of the service's operations: name, method, path, and where docs/api.md documents it.
// The client's resources (src/api/resources) take method and path from it by name, and the local service's
// routes (src/local/http/routes.ts) are built from it, so the two cannot name or address an operation
// differently (test/unit/api/operations.test.ts). The local service's test-only routes are not here.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Which key opens it: the base key, the entity-recognition key, or the base key on a local-only route. */
export type OperationApi = 'base' | 'nlu' | 'admin';

export interface OperationDef {
  readonly method: HttpMethod;
  /** Path template; `{name}` stands for one segment. */
  readonly path: string;
  readonly api: OperationApi;
  /** Its section in docs/api.md. */
  readonly doc: string;
  /** Other paths the local service serves for the same operation (names seen for it in the wild). */
  readonly aliases?: readonly string[];
}

const KB = '/webapi/v2/knowledge_base_nodes';
const op = (method: HttpMethod, path: string, doc: string, aliases?: readonly string[]): OperationDef =>
  aliases ? { method, path, api: 'base', doc, aliases } : { method, path, api: 'base', doc };

export const OPERATIONS = {
  'kbNodes.search': op('POST', `${KB}/search`, 'api.md#list-and-search-nodes'),
  'kbNodes.upload': op('POST', `${KB}/upload`, 'api.md#upload'),
  'kbNodes.uploadFromCloudStore': op('POST', `${KB}/upload_from_cloud_store`, 'api.md#upload-from-a-cloud-store', [
    `${KB}/upload_from_aws_s3`,
  ]),
  // The path seen second-hand first; the alias is our older guess, which the client tries on a 404.
  'kbNodes.uploadFromBlobStorage': op('POST', `${KB}/upload_from_azure_blob`, 'api.md#upload-from-blob-storage', [
    `${KB}/upload_from_blob_storage`,
  ]),
  'kbNodes.moveBulk': op('POST', `${KB}/move/bulk`, 'api.md#move-nodes'),
  'kbNodes.replace': op('POST', `${KB}/{node_id}/replace`, 'api.md#replace-a-documents-file'),
  'kbNodes.delete': op('DELETE', `${KB}/{node_id}`, 'api.md#delete-a-node'),
  'kbNodes.get': op('GET', `${KB}/{node_id}`, 'api.md#one-node-and-node-updates'),
  'kbNodes.update': op('PUT', `${KB}/{node_id}`, 'api.md#one-node-and-node-updates'),
  'kbNodes.download': op('GET', `${KB}/{node_id}/download`, 'api.md#download-the-original-and-the-parsed-text'),
  'kbNodes.text': op('GET', `${KB}/{node_id}/text`, 'api.md#download-the-original-and-the-parsed-text'),
  'kbNodes.ingestionStatus': op('GET', '/webapi/v2/ingestion_status/{node_id}', 'api.md#processing-steps'),
  'kbNodes.toggle': op('POST', '/webapi/toggle_documents', 'api.md#turn-documents-on-or-off'),
  'folders.create': op('POST', '/webapi/v2/folders', 'api.md#folders'),
  'folders.rename': op('PUT', '/webapi/v2/folders/{folder_id}', 'api.md#folders'),
  'folders.delete': op('DELETE', '/webapi/v2/folders/{folder_id}', 'api.md#folders'),
  'hashtags.inUse': op('GET', '/webapi/hashtags', 'api.md#hashtags-in-use'),
  'projects.current': op('GET', '/webapi/v2/projects', 'api.md#key-check'),
  'faq.embeddingStatus': op('GET', '/webapi/faq/embedding_status', 'api.md#embedding-status'),
  'faq.search': op('POST', '/webapi/faq', 'api.md#search-qa'),
  'faq.selectAnswer': op('POST', '/webapi/faq/select_answer', 'api.md#select-answer'),
  'faq.get': op('GET', '/webapi/single_faq', 'api.md#get-one-qa'),
  'faq.list': op('GET', '/webapi/faqs', 'api.md#list-qas'),
  'faq.filter': op('POST', '/webapi/faqs', 'api.md#list-qas'),
  'faq.register': op('POST', '/webapi/register_faq', 'api.md#register-a-qa'),
  'faq.update': op('PUT', '/webapi/register_faq', 'api.md#update-a-qa'),
  'faq.delete': op('POST', '/webapi/delete_faq', 'api.md#delete-a-qa'),
  'faq.feedback': op('POST', '/webapi/faq_feedback', 'api.md#qa-feedback'),
  'faq.feedbackHistory': op('GET', '/webapi/faq_feedbacks', 'api.md#qa-feedback-history'),
  'faq.uploadFile': op('POST', '/webapi/upload_faq_file', 'api.md#upload-a-qa-file'),
  'faq.searchHistory': op('GET', '/webapi/faq_histories', 'api.md#search-history'),
  'faq.candidates': op('GET', '/webapi/faq_candidates', 'api.md#list-candidates'),
  'faq.addCandidates': op('POST', '/webapi/add_faq_candidates', 'api.md#add-candidates'),
  'faq.dailyCount': op('GET', '/webapi/faq_daily_count', 'api.md#daily-count-and-analytics'),
  'faq.dailyAnalytics': op('GET', '/webapi/faq_daily_analytics', 'api.md#daily-count-and-analytics'),
  // One operation whether the answer comes whole (`mode: 'sync'`) or as a stream (`mode: 'stream'`).
  'answers.generate': op('POST', '/webapi/generative_answer', 'api.md#generative-answers'),
  'answers.feedback': op('POST', '/webapi/mrc/user_feedback', 'api.md#answer-feedback'),
  'answers.feedbackHistory': op('GET', '/webapi/mrc_feedbacks', 'api.md#answer-feedback'),
  'retrieval.search': op('POST', '/webapi/retrieval', 'api.md#retrieval'),
  'highlights.forClue': op('GET', '/webapi/v2/highlights/{clue_id}', 'api.md#highlights'),
  'highlights.forRetrieval': op('POST', '/webapi/v2/retrieval/highlight', 'api.md#highlights'),
  'rare.status': op('GET', '/webapi/v2/rare/status', 'api.md#answer-generation-jobs-rare'),
  'rare.build': op('POST', '/webapi/v2/rare/build', 'api.md#answer-generation-jobs-rare'),
  'rare.generate': op('POST', '/webapi/v2/rare/generate', 'api.md#answer-generation-jobs-rare'),
  'rare.cancel': op('POST', '/webapi/v2/rare/cancel', 'api.md#answer-generation-jobs-rare'),
  'rare.results': op('GET', '/webapi/v2/rare/results', 'api.md#answer-generation-jobs-rare'),
  'rare.deleteResult': op('DELETE', '/webapi/v2/rare/results/{result_id}', 'api.md#answer-generation-jobs-rare'),
  'rare.csv': op('GET', '/webapi/v2/rare/csv', 'api.md#answer-generation-jobs-rare'),
  'bulk.run': op('POST', '/webapi/v2/bulk_processing/run', 'api.md#bulk-processing'),
  'bulk.results': op('GET', '/webapi/v2/bulk_processing/results', 'api.md#bulk-processing'),
  'bulk.download': op('GET', '/webapi/v2/bulk_processing/download', 'api.md#bulk-processing'),
  'bulk.deleteResult': op('DELETE', '/webapi/v2/bulk_processing/results/{result_id}', 'api.md#bulk-processing'),
  'nlu.infer': { method: 'POST', path: '/api/inference', api: 'nlu', doc: 'api.md#infer' },
  'nlu.addPhrase': { method: 'POST', path: '/api/add_phrase/{data_type}', api: 'nlu', doc: 'api.md#add-phrase' },
  // Local-only: the extension checks that a service it found answers; the citation viewer reads stored files.
  'admin.info': { method: 'GET', path: '/_local/info', api: 'admin', doc: 'api.md#local-only-routes' },
  'localDocs.content': { method: 'GET', path: '/_local/documents/{node_id}/content', api: 'admin', doc: 'api.md#local-only-routes' },
  'localDocs.pages': { method: 'GET', path: '/_local/documents/{node_id}/pages', api: 'admin', doc: 'api.md#local-only-routes' },
} as const satisfies Record<string, OperationDef>;

export type OperationName = keyof typeof OPERATIONS;

/** The table's entries, each with its name. */
export function operationEntries(): Array<[OperationName, OperationDef]> {
  return Object.entries(OPERATIONS) as Array<[OperationName, OperationDef]>;
}
