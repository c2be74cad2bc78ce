// The path table of the API (docs/api.md), plus the local-only routes (docs/api.md#local-only-routes).
// Each route names an operation; an operation without a handler answers 501.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Api = 'base' | 'nlu' | 'admin';

export interface RouteDef {
  method: Method;
  /** Path template; `{name}` matches one segment. */
  path: string;
  op: string;
  api: Api;
  /** A test route: served only when the service is started with `testHooks` (LocalServiceOptions). */
  test?: true;
}

const base = (method: Method, path: string, op: string): RouteDef => ({ method, path, op, api: 'base' });

export const ROUTES: readonly RouteDef[] = [
  // Knowledge base nodes (docs/api.md#knowledge-base-nodes)
  base('POST', '/webapi/v2/knowledge_base_nodes/search', 'kb.search'),
  base('POST', '/webapi/v2/knowledge_base_nodes/upload', 'kb.upload'),
  base('POST', '/webapi/v2/knowledge_base_nodes/upload_from_cloud_store', 'kb.uploadFromCloudStore'),
  base('POST', '/webapi/v2/knowledge_base_nodes/upload_from_blob_storage', 'kb.uploadFromBlobStorage'),
  base('POST', '/webapi/v2/knowledge_base_nodes/upload_from_azure_blob', 'kb.uploadFromBlobStorage'),
  base('POST', '/webapi/v2/knowledge_base_nodes/upload_from_aws_s3', 'kb.uploadFromCloudStore'),
  base('POST', '/webapi/v2/knowledge_base_nodes/move/bulk', 'kb.moveBulk'),
  base('POST', '/webapi/v2/knowledge_base_nodes/{node_id}/replace', 'kb.replace'),
  base('DELETE', '/webapi/v2/knowledge_base_nodes/{node_id}', 'kb.delete'),
  // From the service's public pages (docs/api.md#further-public-operations)
  base('GET', '/webapi/v2/knowledge_base_nodes/{node_id}', 'kb.get'),
  base('PUT', '/webapi/v2/knowledge_base_nodes/{node_id}', 'kb.update'),
  base('GET', '/webapi/v2/knowledge_base_nodes/{node_id}/download', 'kb.download'),
  base('GET', '/webapi/v2/knowledge_base_nodes/{node_id}/text', 'kb.text'),
  base('GET', '/webapi/v2/ingestion_status/{node_id}', 'kb.ingestionStatus'),
  base('POST', '/webapi/toggle_documents', 'kb.toggle'),
  base('POST', '/webapi/v2/folders', 'folders.create'),
  base('PUT', '/webapi/v2/folders/{folder_id}', 'folders.rename'),
  base('DELETE', '/webapi/v2/folders/{folder_id}', 'folders.delete'),
  base('GET', '/webapi/hashtags', 'hashtags.inUse'),
  base('GET', '/webapi/v2/projects', 'projects.current'),
  base('POST', '/webapi/mrc/user_feedback', 'answers.feedback'),
  base('GET', '/webapi/mrc_feedbacks', 'answers.feedbackHistory'),
  // Q&A (docs/api.md#qa)
  base('POST', '/webapi/faq/select_answer', 'faq.selectAnswer'),
  base('GET', '/webapi/faq/embedding_status', 'faq.embeddingStatus'),
  base('POST', '/webapi/faq', 'faq.search'),
  base('GET', '/webapi/single_faq', 'faq.get'),
  base('GET', '/webapi/faqs', 'faq.list'),
  base('POST', '/webapi/faqs', 'faq.filter'),
  base('POST', '/webapi/register_faq', 'faq.register'),
  base('PUT', '/webapi/register_faq', 'faq.update'),
  base('POST', '/webapi/delete_faq', 'faq.delete'),
  base('GET', '/webapi/faq_feedbacks', 'faq.feedbackHistory'),
  base('POST', '/webapi/upload_faq_file', 'faq.uploadFile'),
  base('POST', '/webapi/faq_feedback', 'faq.feedback'),
  base('GET', '/webapi/faq_histories', 'faq.searchHistory'),
  base('GET', '/webapi/faq_candidates', 'faq.candidates'),
  base('GET', '/webapi/faq_daily_count', 'faq.dailyCount'),
  base('GET', '/webapi/faq_daily_analytics', 'faq.dailyAnalytics'),
  base('POST', '/webapi/add_faq_candidates', 'faq.addCandidates'),
  // Retrieval, answers, highlights (docs/api.md#retrieval, #generative-answers, #highlights)
  base('POST', '/webapi/generative_answer', 'answers.generate'),
  base('POST', '/webapi/retrieval', 'retrieval.search'),
  base('GET', '/webapi/v2/highlights/{clue_id}', 'highlights.forClue'),
  base('POST', '/webapi/v2/retrieval/highlight', 'highlights.forRetrieval'),
  // Answer-generation jobs (RARE)
  base('GET', '/webapi/v2/rare/status', 'rare.status'),
  base('POST', '/webapi/v2/rare/build', 'rare.build'),
  base('POST', '/webapi/v2/rare/generate', 'rare.generate'),
  base('POST', '/webapi/v2/rare/cancel', 'rare.cancel'),
  base('GET', '/webapi/v2/rare/results', 'rare.results'),
  base('DELETE', '/webapi/v2/rare/results/{result_id}', 'rare.deleteResult'),
  base('GET', '/webapi/v2/rare/csv', 'rare.csv'),
  // Bulk processing
  base('POST', '/webapi/v2/bulk_processing/run', 'bulk.run'),
  base('GET', '/webapi/v2/bulk_processing/results', 'bulk.results'),
  base('GET', '/webapi/v2/bulk_processing/download', 'bulk.download'),
  base('DELETE', '/webapi/v2/bulk_processing/results/{result_id}', 'bulk.deleteResult'),
  // Entity recognition (at nlu_url, its own key)
  { method: 'POST', path: '/api/inference', op: 'nlu.infer', api: 'nlu' },
  { method: 'POST', path: '/api/add_phrase/{data_type}', op: 'nlu.addPhrase', api: 'nlu' },
  // Local-only administration, needs the base key: service info (the extension checks that a service it found answers).
  { method: 'GET', path: '/_local/info', op: 'admin.info', api: 'admin' },
  // Test routes, absent (404) unless the service was started with `testHooks`: fault injection, identity, echo.
  { method: 'POST', path: '/_local/faults', op: 'admin.faults', api: 'admin', test: true },
  { method: 'POST', path: '/_local/processing', op: 'admin.processing', api: 'admin', test: true },
  { method: 'GET', path: '/_local/whoami', op: 'admin.whoami', api: 'admin', test: true },
  { method: 'POST', path: '/_local/echo', op: 'admin.echo', api: 'admin', test: true },
  // Local-only document access for the citation viewer: the stored file and its extracted pages.
  { method: 'GET', path: '/_local/documents/{node_id}/content', op: 'localDocs.content', api: 'admin' },
  { method: 'GET', path: '/_local/documents/{node_id}/pages', op: 'localDocs.pages', api: 'admin' },
];
