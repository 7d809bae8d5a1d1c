// The grammar of an image reference, as the container runtimes parse it
// (github.com/distribution/reference, grammar.go):
//   reference  := name [ ":" tag ] [ "@" digest ]
//   name       := [domain "/"] path-component ["/" path-component]*
//   domain     := host [":" port]        host: DNS labels, or an IPv6 address in brackets
//   path-component := [a-z0-9]+ (separator [a-z0-9]+)*   separator: "." | "_" | "__" | "-"+
//   tag        := [\w][\w.-]{0,127}
//   digest     := algorithm ":" hex      (sha256: 64 hex digits)
// A reference that breaks it is refused at create time, not by the kubelet as ErrImagePull
// minutes later.

const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = `(?:(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?)`;
const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const TAG = "[\\w][\\w.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";

const REFERENCE = new RegExp(`^(?<name>(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::${TAG})?(?:@${DIGEST})?$`);

/** The runtimes' limit on the name part (without tag and digest). */
const MAX_NAME_LENGTH = 255;

/** Why `image` is not an image reference, or null when it is one. */
export function imageReferenceProblem(image: string): string | null {
  const match = REFERENCE.exec(image);
  if (!match) {
    if (/[A-Z]/.test(image.split("/").slice(1).join("/").split(":")[0] ?? "")) return "must be lower case in its repository path, e.g. ghcr.io/example/agent:1.0";
    return "must be an image reference such as ghcr.io/example/agent:1.0, node:22 or registry:5000/team/agent@sha256:<64 hex digits>";
  }
  if (match.groups!.name!.length > MAX_NAME_LENGTH) return `must have a name of at most ${MAX_NAME_LENGTH} characters`;
  return null;
}
