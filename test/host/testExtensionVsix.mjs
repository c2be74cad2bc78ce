// Packs a test-only extension folder (test/host/echoModel) as a .vsix for `code-server --install-extension`: the web
// workbench loads one development extension only (a second extensionDevelopmentPath in the payload replaces the
// first), so a lane's extra test extensions are installed instead. Only what VS Code reads: the manifest, the
// package's files under extension/, and the two XML files of the format.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

const xml = (s) => String(s).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

export async function packTestExtension(dir, out) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const manifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${xml(pkg.name)}" Version="${xml(pkg.version)}" Publisher="${xml(pkg.publisher)}" />
    <DisplayName>${xml(pkg.displayName)}</DisplayName>
    <Description xml:space="preserve">${xml(pkg.description)}</Description>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${xml(pkg.engines.vscode)}" /></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code" /></Installation>
  <Dependencies />
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" /></Assets>
</PackageManifest>
`;
  const types = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json" /><Default Extension=".cjs" ContentType="application/javascript" /><Default Extension=".vsixmanifest" ContentType="text/xml" /></Types>
`;
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(manifest), 'extension.vsixmanifest');
  zip.addBuffer(Buffer.from(types), '[Content_Types].xml');
  for (const f of fs.readdirSync(dir)) zip.addFile(path.join(dir, f), `extension/${f}`);
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(out));
  return out;
}
