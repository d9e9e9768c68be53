import Image from "next/image";

/** The product's illustration; decorative, since its name is always next to it. */
export function ProductImage({ sku, size = "large" }: { sku: string; size?: "large" | "small" }) {
  const [width, height] = size === "large" ? [120, 90] : [40, 30];
  return (
    <Image
      src={`/products/${sku}.svg`}
      alt=""
      width={width}
      height={height}
      className={`product-image ${size}`}
      unoptimized
    />
  );
}
