// Which files hold knowledge tests (docs/knowledge-tests.md): the YAML form and the CSV form. Its own module so
// the registrar can watch for them without loading the parsers.
export const TEST_GLOB = '**/*.kdtest.{yaml,yml,csv}';
export const TEST_FILE = /\.kdtest\.(ya?ml|csv)$/i;
export const TEST_EXCLUDE = '**/{node_modules,.git,dist,out,.vscode-test}/**';
