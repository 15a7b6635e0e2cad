"""The conformance command target of a mutation run: asks forkserver.py to verify MDOC_CONFORMANCE_CASE_DIR with
one variant and answers as refverify.py would (its stdout line, its stderr, its exit status).

    python3 -S client.py SOCKET_PATH MUTANT      ("" for the reference itself)

Only the standard library, and -S, so that it starts fast."""
import json
import os
import socket
import sys

sys.dont_write_bytecode = True


def main(path, mutant):
    request = {"dir": os.environ["MDOC_CONFORMANCE_CASE_DIR"], "mutant": mutant}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        conn.sendall((json.dumps(request) + "\n").encode("utf-8"))
        answer = json.loads(conn.makefile("rb").readline().decode("utf-8"))
    sys.stdout.write(answer["stdout"])
    sys.stderr.write(answer["stderr"])
    return answer["rc"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
