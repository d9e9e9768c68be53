import { Checkout } from "./_components/checkout";

export default function ShopPage() {
  return <Checkout />;
}
