// The two functions of node-semver (test oracle) the version tests call; the package ships no types.
declare module 'semver' {
  const semver: {
    compare(a: string, b: string): -1 | 0 | 1;
    valid(version: string): string | null;
  };
  export default semver;
}
