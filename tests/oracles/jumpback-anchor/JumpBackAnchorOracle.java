// Oracle for hash4j's JumpBackAnchorHash:
//   ConsistentHashing.jumpBackAnchorHash(PseudoRandomGeneratorProvider.splitMix64_V1())
// Reads one operation per line on stdin and prints one answer per line:
//   reset        -> "ok" (a new, empty hasher)
//   add          -> the bucket addBucket() returns
//   remove B     -> "true" or "false" (removeBucket(B))
//   get H        -> getBucket(H) for H an unsigned 64-bit decimal, or "empty" when it throws
//   state        -> getState() as lower-case hex
import com.dynatrace.hash4j.consistent.ConsistentBucketSetHasher;
import com.dynatrace.hash4j.consistent.ConsistentHashing;
import com.dynatrace.hash4j.random.PseudoRandomGeneratorProvider;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;

public final class JumpBackAnchorOracle {
  private static ConsistentBucketSetHasher fresh() {
    return ConsistentHashing.jumpBackAnchorHash(PseudoRandomGeneratorProvider.splitMix64_V1());
  }

  public static void main(String[] args) throws Exception {
    ConsistentBucketSetHasher h = fresh();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, "UTF-8"));
    String line;
    while ((line = in.readLine()) != null) {
      String[] p = line.trim().split(" ");
      String answer;
      switch (p[0]) {
        case "reset":
          h = fresh();
          answer = "ok";
          break;
        case "add":
          answer = Integer.toString(h.addBucket());
          break;
        case "remove":
          answer = Boolean.toString(h.removeBucket(Integer.parseInt(p[1])));
          break;
        case "get":
          try {
            answer = Integer.toString(h.getBucket(Long.parseUnsignedLong(p[1])));
          } catch (IllegalStateException e) {
            answer = "empty";
          }
          break;
        case "state":
          StringBuilder sb = new StringBuilder();
          for (byte b : h.getState()) sb.append(String.format("%02x", b & 0xff));
          answer = sb.toString();
          break;
        default:
          throw new IllegalArgumentException("unknown operation " + p[0]);
      }
      out.write(answer);
      out.write('\n');
    }
    out.flush();
  }
}
