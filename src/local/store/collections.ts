// The journal's collections: the names its records are kept under on disk. Together they are the local
// service's durable format (a renamed collection is data lost on upgrade, two stores on one name corrupt each
// other), so they are declared here, once; a unit test keeps them distinct.

/** Knowledge-base nodes: folders and documents. */
export const NODES = 'nodes';
/** Q&As, and what the Q&A search and its history read. */
export const FAQS = 'faqs';
export const FAQ_SEARCHES = 'faqSearches';
export const FAQ_SELECTIONS = 'faqSelections';
export const FAQ_FEEDBACK = 'faqFeedback';
export const FAQ_CANDIDATES = 'faqCandidates';
/** Generated answers' threads and their feedback. */
export const ANSWER_THREADS = 'answerThreads';
export const ANSWER_FEEDBACK = 'answerFeedback';
/** Answer generation (RARE): its status records, its results; bulk processing runs. */
export const RARE = 'rare';
export const RARE_RESULTS = 'rareResults';
export const BULK_RUNS = 'bulkRuns';
