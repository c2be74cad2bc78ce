// Moves every user-visible string of package.json into package.nls.json and leaves a %key% in its place.
// Mechanical and idempotent: strings that are already %key% are kept, new literals get a key derived from
// where they are (command id, view id, setting name, …). Run after adding contributions, then translate the
// new keys in package.nls.ja.json (`npm run l10n` lists the ones missing; test/unit/l10n checks both).
//   node scripts/l10nManifest.mjs           rewrite package.json and package.nls.json
//   node scripts/l10nManifest.mjs --check   exit 1 if a literal is left (no writes)
import { readFileSync, writeFileSync } from 'node:fs';

const check = process.argv.includes('--check');
const pkgText = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(pkgText);
const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {}; // not written yet
  }
};
const nls = readJson('package.nls.json');
const ja = readJson('package.nls.ja.json');
const productName = /^%.*%$/.test(pkg.displayName) ? nls.displayName : pkg.displayName;
const literals = [];
const short = (id) => id.replace(/^knowledgeDesk\./, '');

/** Replaces obj[field] by %key% (adding the English text to package.nls.json) unless it already is one. */
function localize(obj, field, key) {
  const value = obj[field];
  if (typeof value !== 'string' || /^%[^%\s]+%$/.test(value)) return;
  literals.push(`${key}: ${value}`);
  // "Knowledge Desk" as a category or contextual title is the product name: one key for all of them.
  if (value === productName) key = 'displayName';
  if (nls[key] !== undefined && nls[key] !== value) {
    let n = 2;
    while (nls[`${key}.${n}`] !== undefined && nls[`${key}.${n}`] !== value) n++;
    key = `${key}.${n}`;
  }
  nls[key] = value;
  obj[field] = `%${key}%`;
}

localize(pkg, 'displayName', 'displayName');
localize(pkg, 'description', 'description');
const caps = pkg.capabilities ?? {};
if (caps.untrustedWorkspaces) localize(caps.untrustedWorkspaces, 'description', 'capabilities.untrustedWorkspaces.description');
if (caps.virtualWorkspaces) localize(caps.virtualWorkspaces, 'description', 'capabilities.virtualWorkspaces.description');

const c = pkg.contributes ?? {};
for (const [place, list] of Object.entries(c.viewsContainers ?? {}))
  for (const v of list) localize(v, 'title', `viewsContainers.${place}.${short(v.id)}.title`);
for (const list of Object.values(c.views ?? {}))
  for (const v of list) {
    localize(v, 'name', `views.${short(v.id)}.name`);
    localize(v, 'contextualTitle', `views.${short(v.id)}.contextualTitle`);
  }
const welcomeCount = {};
for (const w of c.viewsWelcome ?? []) {
  const view = short(w.view);
  welcomeCount[view] = (welcomeCount[view] ?? 0) + 1;
  localize(w, 'contents', `viewsWelcome.${view}.${welcomeCount[view]}`);
}
for (const cmd of c.commands ?? []) {
  localize(cmd, 'title', `commands.${short(cmd.command)}.title`);
  localize(cmd, 'shortTitle', `commands.${short(cmd.command)}.shortTitle`);
  localize(cmd, 'category', 'displayName');
}
for (const s of c.submenus ?? []) localize(s, 'label', `submenus.${short(s.id)}.label`);
const configs = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
configs.forEach((conf, i) => {
  localize(conf, 'title', i === 0 ? 'configuration.title' : `configuration.${i}.title`);
  for (const [name, prop] of Object.entries(conf.properties ?? {})) {
    const base = `configuration.${short(name)}`;
    for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage'])
      localize(prop, field, `${base}.${field}`);
    for (const field of ['enumDescriptions', 'markdownEnumDescriptions'])
      (prop[field] ?? []).forEach((_, j) => localize(prop[field], j, `${base}.${field}.${prop.enum?.[j] ?? j}`));
  }
});
for (const w of c.walkthroughs ?? []) {
  const base = `walkthroughs.${w.id}`;
  localize(w, 'title', `${base}.title`);
  localize(w, 'description', `${base}.description`);
  for (const step of w.steps ?? []) {
    localize(step, 'title', `${base}.${step.id}.title`);
    localize(step, 'description', `${base}.${step.id}.description`);
    if (step.media) localize(step.media, 'altText', `${base}.${step.id}.altText`);
    // The host reads one Markdown file per step: its path is a key too, so each language names its own file.
    if (step.media) localize(step.media, 'markdown', `${base}.${step.id}.markdown`);
  }
}
// VS Code's chat: the participant's names and descriptions and the tools' names shown to people are localized;
// a tool's `modelDescription` stays English on purpose: it is written for the model (which reads English best
// and answers in the user's language anyway), the MCP server sends the same text (src/ai/knowledgeTools.ts
// TOOL_DESCRIPTIONS, kept equal by test/unit/ai/toolContributions.test.ts), and it is never shown as UI text.
for (const p of c.chatParticipants ?? []) {
  const base = `chatParticipants.${p.name}`;
  localize(p, 'fullName', `${base}.fullName`);
  localize(p, 'description', `${base}.description`);
  for (const cmd of p.commands ?? []) localize(cmd, 'description', `${base}.commands.${cmd.name}.description`);
}
for (const t of c.languageModelTools ?? []) {
  localize(t, 'displayName', `languageModelTools.${t.name}.displayName`);
  localize(t, 'userDescription', `languageModelTools.${t.name}.userDescription`);
}
for (const point of ['mcpServerDefinitionProviders', 'modelContextServerCollections'])
  for (const d of c[point] ?? []) localize(d, 'label', `${point}.${short(d.id)}.label`);

if (check) {
  if (literals.length) {
    console.error(`package.json has ${literals.length} literal string(s); run node scripts/l10nManifest.mjs:\n${literals.join('\n')}`);
    process.exit(1);
  }
} else {
  const indent = (text) => JSON.stringify(text, null, 2) + '\n';
  writeFileSync('package.json', indent(pkg));
  writeFileSync('package.nls.json', indent(nls));
  console.log(`${literals.length} string(s) moved to package.nls.json`);
}
const missing = Object.keys(nls).filter((k) => ja[k] === undefined);
if (missing.length) console.log(`not yet in package.nls.ja.json: ${missing.join(', ')}`);
