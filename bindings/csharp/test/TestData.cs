using System;
using System.IO;
using System.Text.RegularExpressions;

namespace Kmx.Tests
{
    /// <summary>Shared inputs and independent references for the tests.</summary>
    internal static class TestData
    {
        /// <summary>The Letter training file (examples/data, found through KMX_EXAMPLE_DATA).</summary>
        internal static string LetterTrain => ExampleFile("letter_mc.train.libsvm");

        /// <summary>The binary Letter training file (labels -1 and 1).</summary>
        internal static string LetterBinTrain => ExampleFile("letter_bin.train.libsvm");

        static string ExampleFile(string name)
        {
            string dir = Environment.GetEnvironmentVariable("KMX_EXAMPLE_DATA");
            if (string.IsNullOrEmpty(dir)) throw new InvalidOperationException("KMX_EXAMPLE_DATA is not set");
            return Path.Combine(dir, name);
        }

        /// <summary>A dataset copied from rows [begin, end) of data, with their labels.</summary>
        internal static Dataset Rows(Dataset data, long begin, long end)
        {
            double[] labels = data.GetLabels();
            var y = new double[end - begin];
            Array.Copy(labels, begin, y, 0, y.Length);
            return new Dataset(data.GetRows(begin, end), data.Cols, y);
        }

        /// <summary>The fraction of predictions equal to the labels.</summary>
        internal static double Accuracy(double[] predicted, double[] labels)
        {
            int right = 0;
            for (int i = 0; i < labels.Length; ++i)
                if (predicted[i] == labels[i]) ++right;
            return (double)right / labels.Length;
        }

        /// <summary>Deterministic pseudo-random row-major values in [-1, 1).</summary>
        internal static double[] Values(int count, int seed)
        {
            var random = new Random(seed);
            var values = new double[count];
            for (int i = 0; i < count; ++i) values[i] = 2 * random.NextDouble() - 1;
            return values;
        }

        /// <summary>exp(-gamma |a_i - b_j|^2) computed by a plain double loop.</summary>
        internal static double Rbf(double[] a, int i, double[] b, int j, int d, double gamma)
        {
            double sum = 0;
            for (int c = 0; c < d; ++c)
            {
                double diff = a[i * d + c] - b[j * d + c];
                sum += diff * diff;
            }
            return Math.Exp(-gamma * sum);
        }

        /// <summary>The squared Euclidean distance of row i of x to row j of centers.</summary>
        internal static double SquaredDistance(double[] x, int i, double[] centers, int j, int d)
        {
            double sum = 0;
            for (int c = 0; c < d; ++c)
            {
                double diff = x[i * d + c] - centers[j * d + c];
                sum += diff * diff;
            }
            return sum;
        }

        /// <summary>This process's resident memory in MB (VmRSS in /proc/self/status).</summary>
        internal static double ResidentMegabytes()
        {
            Match match = Regex.Match(File.ReadAllText("/proc/self/status"), @"VmRSS:\s+(\d+) kB");
            return long.Parse(match.Groups[1].Value) / 1024.0;
        }
    }
}
