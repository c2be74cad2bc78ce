// Entry of dist/mcp.js: `node dist/mcp.js --local` serves the knowledge tools over stdio (src/mcp/mcpMain.ts).
import { log, main } from './mcpMain';

main(process.argv.slice(2)).catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
