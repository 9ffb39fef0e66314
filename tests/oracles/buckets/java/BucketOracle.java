// Bucket oracle for the Java references: reads "input buckets" lines (input as unsigned 64-bit
// decimal) on stdin and prints the real library's bucket, one per line.
//   java BucketOracle guava     -> com.google.common.hash.Hashing.consistentHash(long, int)
//   java BucketOracle jumpback  -> com.dynatrace.hash4j.consistent.ConsistentHashing
//                                  .jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1())
import com.dynatrace.hash4j.consistent.ConsistentBucketHasher;
import com.dynatrace.hash4j.consistent.ConsistentHashing;
import com.dynatrace.hash4j.random.PseudoRandomGeneratorProvider;
import com.google.common.hash.Hashing;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;

public final class BucketOracle {
  public static void main(String[] args) throws Exception {
    String algorithm = args[0];
    ConsistentBucketHasher jumpBack =
        ConsistentHashing.jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, "UTF-8"));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      String[] parts = line.trim().split(" ");
      long input = Long.parseUnsignedLong(parts[0]);
      int buckets = Integer.parseInt(parts[1]);
      int bucket;
      switch (algorithm) {
        case "guava":
          bucket = Hashing.consistentHash(input, buckets);
          break;
        case "jumpback":
          bucket = jumpBack.getBucket(input, buckets);
          break;
        default:
          throw new IllegalArgumentException("unknown algorithm " + algorithm);
      }
      out.write(Integer.toString(bucket));
      out.write('\n');
    }
    out.flush();
  }
}
