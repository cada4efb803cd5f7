import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The ```js / ```ts code blocks of a Markdown file, in order. */
export function readmeCodeBlocks(
  readmePath: string,
  languages: readonly string[] = ['js', 'javascript', 'mjs'],
): string[] {
  const text = fs.readFileSync(readmePath, 'utf8');
  const blocks: string[] = [];
  const re = /^```(\w+)[^\n]*\n([\s\S]*?)^```/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (languages.includes(m[1]!)) blocks.push(m[2]!);
  }
  return blocks;
}

/**
 * Runs a README's first JavaScript example as a user would (an ES module next to the package, so
 * `import … from '@waved/<name>'` resolves to the built package) and resolves with its output.
 */
export function runReadmeExample(
  packageDir: string,
  { index = 0, timeoutMs = 30_000 }: { index?: number; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const code = readmeCodeBlocks(path.join(packageDir, 'README.md'))[index];
  if (code === undefined) throw new Error(`no JavaScript example #${index} in ${packageDir}/README.md`);
  const file = path.join(packageDir, `.readme-example-${process.pid}-${index}.mjs`);
  fs.writeFileSync(file, code);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { timeout: timeoutMs, cwd: packageDir, encoding: 'utf8' },
      (error, stdout, stderr) => {
        fs.rmSync(file, { force: true });
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
