import { OrdersList } from "~/app/_components/orders-list";

export default function OrdersPage() {
  return <OrdersList />;
}
