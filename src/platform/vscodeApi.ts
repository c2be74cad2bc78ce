// The extension bundle imports `vscode` through this one module (esbuild.mjs, shareVscodeImport). Bundled
// as is, every module importing `vscode` copied the whole API object into its own namespace object at load
// (a few hundred properties each, about 50 modules): most of what loading the bundle cost in the real host.
export * from 'vscode';
