// Types for what tests read from the fake `vscode` module.
export interface FakeState {
  settings: Record<string, unknown>;
  workspaceFolders: { uri: { scheme: string; fsPath: string } }[] | undefined;
  errorChoice: string | undefined;
  calls: { name: string; args: unknown[] }[];
  commands: Map<string, (...args: unknown[]) => unknown>;
  log: { channel: string; level: string; message: string }[];
  onDidChangeConfiguration?: (event: { affectsConfiguration(section: string): boolean }) => void;
}
