import { describe, expect, it } from "vitest";
import { sandboxContainer } from "./test-fixtures.ts";

async function out(script: string, env: Record<string, string> = {}): Promise<string> {
  return (await sandboxContainer({ instantSleep: true }).sh(script, { env })).stdout;
}

describe("words, quotes and expansions", () => {
  it("keeps quoted text whole and removes the quotes", async () => {
    expect(await out(`printf '[%s]' 'a  b' "c  d" e\\ f g"h"'i' ""; echo`)).toBe("[a  b][c  d][e f][ghi][]\n");
  });

  it("expands $VAR, ${VAR}, $? and defaults, and splits unquoted results", async () => {
    expect(await out('X="1  2"; printf "[%s]" $X "$X" ${X}; echo', {})).toBe("[1][2][1  2][1][2]\n");
    expect(await out("false; echo $?; true; echo $?")).toBe("1\n0\n");
    expect(await out('echo "${UNSET:-fallback} ${UNSET-} ${NAME:+set} ${#NAME}"', { NAME: "abc" })).toBe("fallback  set 3\n");
    expect(await out('f=archive.tar.gz; echo ${f%.gz} ${f%%.*} ${f#*.} ${f##*.}')).toBe("archive.tar archive tar.gz gz\n");
  });

  it("interprets backslashes inside double quotes only before $ ` \" \\", async () => {
    expect(await out('echo "a\\$b \\"q\\" \\n"')).toBe('a$b "q" \\n\n');
  });

  it("substitutes commands and arithmetic", async () => {
    expect(await out('echo "$(echo inner | tr 2>/dev/null || echo sub)" `echo back` $((2 * (3 + 4)))')).toBe("sub back 14\n");
    expect(await out("n=1; n=$((n + 1)); echo $n")).toBe("2\n");
  });

  it("expands globs against the file system and leaves unmatched patterns alone", async () => {
    const { sh } = sandboxContainer();
    await sh("mkdir -p /sandbox/src && touch /sandbox/src/a.ts /sandbox/src/b.ts /sandbox/src/.hidden.ts");
    expect((await sh("echo /sandbox/src/*.ts; cd /sandbox && echo src/?.ts; echo nothing*.md; echo '*.ts'")).stdout).toBe(
      "/sandbox/src/a.ts /sandbox/src/b.ts\nsrc/a.ts src/b.ts\nnothing*.md\n*.ts\n",
    );
  });

  it("expands ~ to HOME", async () => {
    expect(await out("echo ~ ~/x", { HOME: "/sandbox" })).toBe("/sandbox /sandbox/x\n");
  });

  it("passes \"$@\" through as separate words", async () => {
    const { run } = sandboxContainer();
    expect((await run(["sh", "-c", 'for a in "$@"; do echo "<$a>"; done', "sh", "one two", "three"])).stdout).toBe("<one two>\n<three>\n");
  });
});

describe("lists, pipelines and conditions", () => {
  it("runs ;, && and || with the right short-circuits", async () => {
    expect(await out("false && echo no || echo yes; true || echo no; echo end")).toBe("yes\nend\n");
    expect(await out("! true; echo $?; ! false; echo $?")).toBe("1\n0\n");
  });

  it("pipes each command's output into the next and reports the last status", async () => {
    expect(await out("printf 'a\\nb\\nc\\n' | wc -l")).toBe("3\n");
    expect(await out("echo x | false; echo $?; false | echo y; echo $?")).toBe("1\ny\n0\n");
    expect(await out("set -o pipefail; false | true; echo $?")).toBe("1\n");
  });

  it("runs if / elif / else", async () => {
    const script = 'for n in 1 2 3; do if [ "$n" = 1 ]; then echo one; elif [ "$n" -eq 2 ]; then echo two; else echo other; fi; done';
    expect(await out(script)).toBe("one\ntwo\nother\n");
  });

  it("runs while and until loops with break and continue", async () => {
    expect(await out("i=0; while [ $i -lt 5 ]; do i=$((i+1)); [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done")).toBe("1\n3\n");
    expect(await out("i=0; until [ $i -ge 2 ]; do echo $i; i=$((i+1)); done")).toBe("0\n1\n");
  });

  it("keeps subshell changes inside the subshell and group changes outside", async () => {
    expect(await out("X=1; (X=2; cd /tmp); echo $X $(pwd); { X=3; cd /tmp; }; echo $X $(pwd)")).toBe("1 /\n3 /tmp\n");
  });

  it("takes `--` before cd's directory, so a name may start with a dash", async () => {
    expect(await out("mkdir /tmp/-odd && cd -- /tmp/-odd && pwd && cd -P -- /tmp && pwd")).toBe("/tmp/-odd\n/tmp\n");
  });

  it("exits with `exit N`, and with the last status without N", async () => {
    const { sh } = sandboxContainer();
    expect((await sh("exit 3")).exitCode).toBe(3);
    expect(await sh("echo before; false; exit; echo after")).toMatchObject({ exitCode: 1, stdout: "before\n" });
    expect((await sh("(exit 4); echo $?")).stdout).toBe("4\n");
  });

  it("stops at the first failure under set -e, except in conditions", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("set -e; if false; then :; fi; false || true; ! true; echo alive; false; echo dead")).toMatchObject({ exitCode: 1, stdout: "alive\n" });
    expect((await sh("echo hi", { env: {} })).exitCode).toBe(0);
  });

  it("reads lines with read", async () => {
    expect(await out("printf 'a b c\\nsecond\\n' | { read x rest; read y; echo \"$x|$rest|$y\"; }")).toBe("a|b c|second\n");
    expect(await out("printf 'l1\\nl2\\n' > /tmp/f; while read -r line; do echo \"[$line]\"; done < /tmp/f")).toBe("[l1]\n[l2]\n");
  });

  it("feeds here-documents to stdin, expanding unless the delimiter is quoted", async () => {
    expect(await out("cat <<EOF\nhost $H\nEOF\ncat <<'EOF'\nraw $H\nEOF", { H: "h1" })).toBe("host h1\nraw $H\n");
  });

  it("traces commands under set -x", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("set -x; echo traced")).toMatchObject({ stdout: "traced\n", stderr: "+ echo traced\n" });
  });
});

describe("redirections", () => {
  it("writes, appends, reads and discards", async () => {
    const { sh, workspace } = sandboxContainer();
    const result = await sh("echo one > /sandbox/f; echo two >> /sandbox/f; cat < /sandbox/f; echo gone > /dev/null");
    expect(result.stdout).toBe("one\ntwo\n");
    expect(workspace.readText("f")).toBe("one\ntwo\n");
  });

  it("duplicates descriptors left to right", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("ls /nope 2>&1")).toMatchObject({ stdout: "ls: cannot access '/nope': No such file or directory\n", stderr: "" });
    expect(await sh("ls /nope 2>&1 >/dev/null")).toMatchObject({ stdout: "ls: cannot access '/nope': No such file or directory\n" });
    expect(await sh("ls /nope >/dev/null 2>&1; echo $?")).toEqual({ exitCode: 0, stdout: "2\n", stderr: "" });
    expect(await sh("echo to-err >&2")).toMatchObject({ stdout: "", stderr: "to-err\n" });
  });

  it("reports a redirection it cannot make the way dash does, with status 2", async () => {
    const { sh } = sandboxContainer();
    expect(await sh("echo x > /sandbox/no/such/f; echo $?")).toEqual({
      exitCode: 0,
      stdout: "2\n",
      stderr: "sh: 1: cannot create /sandbox/no/such/f: Directory nonexistent\n",
    });
    expect((await sh("cat < /missing")).stderr).toBe("sh: 1: cannot open /missing: No such file\n");
  });

  it("refuses to write to a read-only mount", async () => {
    const { sh, config } = sandboxContainer();
    expect(await sh("echo x > /etc/app/settings.json")).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "sh: 1: cannot create /etc/app/settings.json: Read-only file system\n",
    });
    expect(await sh("touch /etc/app/new; rm /etc/app/settings.json; mkdir /etc/app/d")).toMatchObject({
      exitCode: 1,
      stderr:
        "touch: cannot touch '/etc/app/new': Read-only file system\n" +
        "rm: cannot remove '/etc/app/settings.json': Read-only file system\n" +
        "mkdir: cannot create directory '/etc/app/d': Read-only file system\n",
    });
    expect(config.readText("settings.json")).toBe('{"debug":false}\n');
  });
});

describe("syntax errors", () => {
  it.each([
    ["if true; then echo", 'sh: 1: Syntax error: end of file unexpected (expecting "fi")\n'],
    ["echo 'open", "sh: 1: Syntax error: Unterminated quoted string\n"],
    ["&& echo", 'sh: 1: Syntax error: "&&" unexpected\n'],
    ["echo ok\nfi", 'sh: 2: Syntax error: "fi" unexpected\n'],
    ["echo >", 'sh: 1: Syntax error: end of file unexpected\n'],
    ["echo ${x!y}", "sh: 1: Syntax error: Bad substitution\n"],
  ])("%j exits 2 with dash's message", async (script, stderr) => {
    expect(await sandboxContainer().sh(script)).toEqual({ exitCode: 2, stdout: "", stderr });
  });

  it("words bash's errors the bash way", async () => {
    expect(await sandboxContainer().run(["bash", "-c", "fi"])).toMatchObject({ exitCode: 2, stderr: "bash: line 1: syntax error near unexpected token `fi'\n" });
  });

  it("exits 2 on a fatal expansion error", async () => {
    expect(await sandboxContainer().sh("set -u; echo $NOPE; echo after")).toEqual({ exitCode: 2, stdout: "", stderr: "sh: 1: NOPE: parameter not set\n" });
    expect((await sandboxContainer().sh(": ${REQUIRED:?must be set}")).stderr).toBe("sh: 1: REQUIRED: must be set\n");
  });
});

describe("case and functions", () => {
  it("matches case patterns in order, with alternatives and globs", async () => {
    const script = 'for f in a.ts b.md start other; do case "$f" in *.ts|*.js) echo "$f: code";; *.md) echo "$f: doc" ;; start) echo go;; *) echo "$f: ?";; esac; done';
    expect(await out(script)).toBe("a.ts: code\nb.md: doc\ngo\nother: ?\n");
    expect(await out("case x in\n  (y) echo no ;;\n  ('x') echo quoted\nesac")).toBe("quoted\n");
  });

  it("defines and calls functions with their own arguments, local variables and return", async () => {
    const script = [
      "greet() {",
      '  local who="$1"',
      '  echo "hello $who ($#)"',
      "  return 3",
      "}",
      "who=outer",
      "greet world extra; echo \"status $? who=$who args=$#\"",
    ].join("\n");
    expect(await out(script)).toBe("hello world (2)\nstatus 3 who=outer args=0\n");
  });

  it("lets a function see and change globals it does not declare local", async () => {
    expect(await out("count=0; bump() { count=$((count + 1)); }; bump; bump; echo $count")).toBe("2\n");
  });
});

describe("eval and .", () => {
  it("runs source in the current shell, where exit ends the whole script", async () => {
    const { sh } = sandboxContainer();
    expect(await sh('eval "X=1; echo \\$X"; echo after; eval "exit 4"; echo never')).toMatchObject({ exitCode: 4, stdout: "1\nafter\n" });
    await sh("printf 'SOURCED=yes\\nreturn 5\\necho skipped\\n' > /tmp/lib.sh");
    expect((await sh(". /tmp/lib.sh; echo \"$? $SOURCED\"")).stdout).toBe("5 yes\n");
  });
});
