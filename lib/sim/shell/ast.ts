/** The syntax tree of the POSIX shell subset the simulated containers run. */

export type ParameterOperator = "-" | ":-" | "=" | ":=" | "?" | ":?" | "+" | ":+" | "#" | "##" | "%" | "%%";

export type WordPart =
  | { kind: "literal"; text: string; quoted: boolean }
  | { kind: "parameter"; name: string; quoted: boolean; length?: boolean; operator?: ParameterOperator; argument?: Word }
  | { kind: "command"; script: Script; quoted: boolean }
  | { kind: "arithmetic"; expression: Word; quoted: boolean };

export interface Word {
  parts: WordPart[];
  /** The source text, for reserved-word checks, xtrace and messages. */
  raw: string;
}

/** `<<` is a here-document: its target word is the document's body, not a file name. */
export type RedirectOperator = ">" | ">>" | ">|" | "<" | "<>" | ">&" | "<&" | "<<";

export interface Redirect {
  fd: number;
  operator: RedirectOperator;
  target: Word;
}

export interface Assignment {
  name: string;
  value: Word;
}

export interface SimpleCommand {
  kind: "simple";
  line: number;
  assignments: Assignment[];
  words: Word[];
  redirects: Redirect[];
}

export interface IfCommand {
  kind: "if";
  line: number;
  branches: { condition: Script; body: Script }[];
  otherwise?: Script;
  redirects: Redirect[];
}

export interface LoopCommand {
  kind: "while" | "until";
  line: number;
  condition: Script;
  body: Script;
  redirects: Redirect[];
}

export interface ForCommand {
  kind: "for";
  line: number;
  variable: string;
  /** Absent: iterate over "$@". */
  items?: Word[];
  body: Script;
  redirects: Redirect[];
}

export interface GroupCommand {
  kind: "group";
  line: number;
  /** `( … )` runs in a subshell, `{ …; }` in the current shell. */
  subshell: boolean;
  body: Script;
  redirects: Redirect[];
}

export interface CaseCommand {
  kind: "case";
  line: number;
  subject: Word;
  items: { patterns: Word[]; body: Script }[];
  redirects: Redirect[];
}

/** `name() compound-command`: defining it runs nothing. */
export interface FunctionDefinition {
  kind: "function";
  line: number;
  name: string;
  body: Command;
  redirects: Redirect[];
}

export type Command = SimpleCommand | IfCommand | LoopCommand | ForCommand | GroupCommand | CaseCommand | FunctionDefinition;

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

export interface AndOrList {
  first: Pipeline;
  rest: { operator: "&&" | "||"; pipeline: Pipeline }[];
  /** Ended by `&`: run as a job in a subshell while the script goes on. */
  background?: boolean;
}

/** A list of and-or lists run one after another (`;` or newline). */
export interface Script {
  items: AndOrList[];
}
