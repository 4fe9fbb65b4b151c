// MissingNative.cs — what Kmx.dll reports when its native libraries do not load (test_missing_native.py
// runs it from a folder without them). Prints each failure as "Type: message"; exit 0 if kmx loaded, else 3.
using System;
using Kmx;

static class MissingNative
{
    static int Main()
    {
        Action[] firstUses =
        {
            () => Console.WriteLine("kmx " + Library.Version),  // the first call into the native library
            () => new Context().Dispose(),                      // later ones fail alike
            () => Console.WriteLine(Param.Gamma.Name()),
        };
        int failures = 0;
        foreach (Action use in firstUses)
        {
            try
            {
                use();
            }
            catch (Exception e)
            {
                Console.WriteLine(e.GetType().FullName + ": " + e.Message);
                ++failures;
            }
        }
        return failures == 0 ? 0 : 3;
    }
}
