using System;

namespace Kmx
{
    /// <summary>Checks and shapes the managed arrays handed to C.</summary>
    internal static class Arrays
    {
        /// <summary>The number of rows of a row-major array with cols columns; throws ArgumentException if it is not whole.</summary>
        internal static long Rows(double[] values, long cols, string name)
        {
            if (values == null) throw new ArgumentNullException(name);
            if (cols <= 0) throw new ArgumentException($"{name}: the number of columns must be positive, not {cols}", name);
            if (values.Length % cols != 0)
                throw new ArgumentException($"{name} has {values.Length} values, not a multiple of {cols} columns", name);
            return values.Length / cols;
        }

        /// <summary>Throws ArgumentException unless values holds exactly expected numbers.</summary>
        internal static void RequireLength<T>(T[] values, long expected, string name)
        {
            if (values != null && values.Length != expected)
                throw new ArgumentException($"{name} has {values.Length} values, expected {expected}", name);
        }

        /// <summary>The row-major values of a matrix (one copy: P/Invoke here takes double[]; pass double[] to avoid it).</summary>
        internal static double[] Flatten(double[,] matrix)
        {
            if (matrix == null) throw new ArgumentNullException(nameof(matrix));
            var flat = new double[matrix.Length];
            Buffer.BlockCopy(matrix, 0, flat, 0, matrix.Length * sizeof(double));
            return flat;
        }
    }
}
