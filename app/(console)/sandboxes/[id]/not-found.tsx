import Link from "next/link";
import { PageHeader } from "@/app/components/page-header.tsx";

/** A link to a sandbox Berth has no record of: say so, and where to look instead. */
export default function SandboxNotFound() {
  return (
    <>
      <PageHeader
        title="No such sandbox"
        description="Berth has no record of a sandbox with this id. The link may be mistyped or cut short, or the sandbox may belong to another Berth: each console keeps its own records."
      />
      <p>
        <Link href="/sandboxes">See every sandbox Berth knows</Link>
      </p>
    </>
  );
}
